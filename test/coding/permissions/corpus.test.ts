// The bash-safety corpus through the decision engine with the real Bash tool: in default mode no
// `ask` row may be allowed; the share of `safe` rows allowed without a prompt is reported.
import { beforeAll, describe, expect, it } from 'vitest';
import { bashTool } from '../../../src/coding/tools/bash.js';
import { loadBashAnalyzer } from '../../../src/coding/bash/index.js';
import { createPolicy } from '../../../src/coding/permissions/engine.js';
import { emptySettings } from '../../../src/coding/settings/load.js';
import { createSession } from '../../../src/runtime/tool/session.js';
import type { PermissionMode } from '../../../src/runtime/pipeline/types.js';
import { readJsonl } from '../../support/data.js';

interface Row {
  command: string;
  expected: 'safe' | 'ask';
}

const rows = readJsonl<Row>('bash-safety', 'commands-dev.jsonl');

const tool = bashTool();
const cwd = process.cwd();
const session = createSession({ cwd });

function decide(command: string, mode: PermissionMode) {
  const policy = createPolicy({ settings: emptySettings(), mode, cwd, roots: [cwd], home: '/nonexistent-home' });
  return policy.decide({ tool, input: { command }, toolCheck: { behavior: 'passthrough' }, session });
}

beforeAll(async () => {
  await loadBashAnalyzer();
});

describe('bash-safety corpus through the engine', () => {
  it('no ask row is auto-allowed in default, acceptEdits or dontAsk mode', () => {
    for (const mode of ['default', 'acceptEdits', 'dontAsk'] as const) {
      const allowed = rows.filter((r) => r.expected === 'ask' && decide(r.command, mode).behavior === 'allow').map((r) => r.command);
      expect(allowed, mode).toEqual([]);
    }
  });

  it('every ask row that asks offers only narrow rules', () => {
    for (const row of rows.filter((r) => r.expected === 'ask')) {
      const d = decide(row.command, 'default');
      for (const s of d.suggestions ?? []) expect(['Bash', 'Bash(*)']).not.toContain(s);
    }
  });

  it('reports the share of safe rows allowed without a prompt', () => {
    const safe = rows.filter((r) => r.expected === 'safe');
    const allowed = safe.filter((r) => decide(r.command, 'default').behavior === 'allow');
    const share = allowed.length / safe.length;
    console.log(`safe rows auto-allowed: ${allowed.length}/${safe.length} (${(share * 100).toFixed(1)}%)`);
    // The analyser decides which rows are read-only; the engine must allow every one of them.
    expect(allowed.length).toBe(safe.filter((r) => tool.isReadOnly({ command: r.command })).length);
    expect(share).toBeGreaterThan(0);
  });
});
