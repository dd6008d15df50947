// Deciding a Bash call the way a real one is decided: the real Bash tool and analyser, the
// engine with the given rules and mode, lexical paths only (this folder does not exist).
import { bashTool } from '../../../src/coding/tools/bash.js';
import { createPolicy } from '../../../src/coding/permissions/engine.js';
import { parseRule, type Rule } from '../../../src/coding/permissions/rules.js';
import { emptySettings } from '../../../src/coding/settings/load.js';
import { createSession } from '../../../src/runtime/tool/session.js';
import type { PermissionDecision, PermissionMode } from '../../../src/runtime/pipeline/types.js';
import type { ToolContext } from '../../../src/runtime/tool/types.js';

const cwd = '/nonexistent-ws/project';
const tool = bashTool();
// Where containment works: the table as it applies there (without it only the audited core runs unasked).
const session = createSession({ cwd, dir: '/nonexistent-ws/session', contained: true });

export interface Rules {
  allow?: string[];
  ask?: string[];
  deny?: string[];
}

function toRules(texts: string[] = []): Rule[] {
  return texts.map((text) => {
    const parsed = parseRule(text);
    if (!parsed.ok) throw new Error(parsed.message);
    return { ...parsed.rule, text, source: 'test', base: cwd };
  });
}

/** Needs loadBashAnalyzer() first. */
export async function decideBash(command: string, rules: Rules = {}, mode?: PermissionMode): Promise<PermissionDecision> {
  const settings = emptySettings();
  settings.permissions.allow = toRules(rules.allow);
  settings.permissions.ask = toRules(rules.ask);
  settings.permissions.deny = toRules(rules.deny);
  const input = { command };
  const ctx: ToolContext = { signal: new AbortController().signal, session, toolUseId: 't', onProgress: () => {} };
  // As a real call: validation analyses the line from the session's folder.
  await tool.validateInput?.(input, ctx);
  const policy = createPolicy({ settings, mode, cwd, roots: [cwd], home: '/nonexistent-home' });
  return policy.decide({ tool, input, toolCheck: { behavior: 'passthrough' }, session });
}
