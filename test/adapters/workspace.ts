// A real workspace for the adapter tests: a temp folder, wield's own Read/Write/Edit tools, the
// coding tier's permission engine with rules, a PreToolUse hook, and a Probe tool that records
// when each call ran (to check the gate's scheduling across calls a framework starts at once).
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { createPolicy } from '../../src/coding/permissions/engine.js';
import { parseRule } from '../../src/coding/permissions/rules.js';
import { emptySettings } from '../../src/coding/settings/load.js';
import { editTool, readTool, writeTool } from '../../src/coding/tools/index.js';
import { createRuntime } from '../../src/runtime/pipeline/runtime.js';
import type { RuntimeContext } from '../../src/runtime/pipeline/types.js';
import type { AgentRuntime } from '../../src/runtime/pipeline/runtime.js';
import type { HookHandler } from '../../src/runtime/hooks/types.js';
import { ToolRegistry } from '../../src/runtime/registry/registry.js';
import { defineTool } from '../../src/runtime/tool/define.js';
import { createSession } from '../../src/runtime/tool/session.js';
import type { AnyTool } from '../../src/runtime/tool/types.js';

export interface ProbeSpan {
  id: string;
  start: number;
  end: number;
}

export interface Workspace {
  dir: string;
  runtime: AgentRuntime;
  spans: ProbeSpan[];
  read(file: string): string;
  file(name: string): string;
  cleanup(): void;
}

/** Probe{id, safe, key?, ms}: concurrency-safe when `safe`, write key `key`, sleeps `ms`. */
function probeTool(spans: ProbeSpan[]): AnyTool {
  return defineTool({
    name: 'Probe',
    description: 'Records when it ran',
    inputSchema: z.object({ id: z.string(), safe: z.boolean(), key: z.string().optional(), ms: z.number().int().max(500) }),
    isConcurrencySafe: (input) => input.safe,
    writeKey: (input) => input.key,
    interruptBehavior: () => 'cancel',
    call: async (input) => {
      const start = performance.now();
      await new Promise((resolve) => setTimeout(resolve, input.ms));
      spans.push({ id: input.id, start, end: performance.now() });
      return `probe ${input.id} done`;
    },
  });
}

function rules(texts: string[], base: string) {
  return texts.map((text) => {
    const parsed = parseRule(text);
    if (!parsed.ok) throw new Error(parsed.message);
    return { ...parsed.rule, text, source: 'test', base };
  });
}

/** Write/Edit allowed in the workspace (acceptEdits), `Write(secret.txt)` denied, `Edit(ask-*)` asks. */
export function makeWorkspace(overrides: Partial<RuntimeContext> = {}): Workspace {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'wield-adapter-')));
  const spans: ProbeSpan[] = [];
  const registry = new ToolRegistry();
  for (const tool of [readTool(), writeTool(), editTool(), probeTool(spans)]) registry.register(tool);
  const settings = emptySettings();
  settings.permissions.deny = rules(['Write(secret.txt)'], dir) as typeof settings.permissions.deny;
  settings.permissions.ask = rules(['Edit(ask-*)'], dir) as typeof settings.permissions.ask;
  settings.permissions.allow = rules(['Probe'], dir) as typeof settings.permissions.allow;
  const hooks: HookHandler[] = [
    {
      event: 'PreToolUse',
      matcher: 'Write',
      name: 'no-tmp',
      run: async (input) => (String(input.tool_input?.file_path).endsWith('.tmp') ? { block: { reason: 'no .tmp files here' } } : {}),
    },
  ];
  const runtime = createRuntime({
    registry,
    session: createSession({ cwd: dir, dir: path.join(dir, '.session') }),
    policy: createPolicy({ settings, mode: 'acceptEdits', cwd: dir, roots: [dir], home: '/nonexistent-home' }),
    hooks,
    ...overrides,
  });
  return {
    dir,
    runtime,
    spans,
    file: (name) => path.join(dir, name),
    read: (name) => readFileSync(path.join(dir, name), 'utf8'),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** True when the two probe runs overlapped in time. */
export function overlapped(a: ProbeSpan, b: ProbeSpan): boolean {
  return a.start < b.end && b.start < a.end;
}

export function span(spans: ProbeSpan[], id: string): ProbeSpan {
  const found = spans.find((entry) => entry.id === id);
  if (!found) throw new Error(`probe ${id} never ran`);
  return found;
}
