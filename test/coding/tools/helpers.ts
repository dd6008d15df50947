// Test helpers: a session in a fresh temp workspace, and calls that go through the tool's own
// schema, call() and toModel() the way the pipeline would (ToolError → error result).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseRule, type Rule } from '../../../src/coding/permissions/rules.js';
import { createSession } from '../../../src/runtime/tool/session.js';
import { ToolError } from '../../../src/runtime/tool/types.js';
import type { AnyTool, SessionState, ToolContext, ToolProgress, ToolResultContent } from '../../../src/runtime/tool/types.js';

export interface Workspace {
  root: string;
  session: SessionState;
  ctx: (extra?: Partial<ToolContext>) => ToolContext;
  file: (rel: string, content: string | Buffer) => string;
  cleanup: () => void;
  progress: ToolProgress[];
}

export function workspace(): Workspace {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wield-tools-')));
  const root = path.join(base, 'ws');
  fs.mkdirSync(root);
  const session = createSession({ cwd: root, dir: path.join(base, 'session') });
  const progress: ToolProgress[] = [];
  return {
    root,
    session,
    progress,
    ctx: (extra = {}) => ({
      signal: new AbortController().signal,
      session,
      toolUseId: 't1',
      onProgress: (p) => progress.push(p),
      ...extra,
    }),
    file(rel, content) {
      const file = path.join(root, rel);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
      return file;
    },
    cleanup: () => fs.rmSync(base, { recursive: true, force: true }),
  };
}

export type Outcome = ToolResultContent & { text: string };

/** Validates with the tool's schema, calls it, and maps the output (or a ToolError) for the model. */
export async function run(tool: AnyTool, input: unknown, ctx: ToolContext): Promise<Outcome> {
  const parsed = await tool.inputSchema!['~standard'].validate(input);
  if (parsed.issues) {
    const text = parsed.issues.map((issue) => issue.message).join('; ');
    return { content: [{ type: 'text', text }], isError: true, text };
  }
  if (tool.validateInput) {
    const verdict = await tool.validateInput(parsed.value, ctx);
    if (!verdict.ok) return { content: [{ type: 'text', text: verdict.message }], isError: true, text: verdict.message };
  }
  try {
    const output = await tool.call(parsed.value, ctx);
    const result = tool.toModel(output, { maxChars: tool.maxResultChars });
    const text = result.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
    return { ...result, text };
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    return { content: [{ type: 'text', text: error.message }], isError: true, text: error.message };
  }
}

/** A deny rule as a settings file at `base` would give it. */
export function denyRule(text: string, base: string): Rule {
  const parsed = parseRule(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return { ...parsed.rule, text, source: 'test', base };
}

/**
 * Runs `sleep <mark>` and prints "up" once sleep (not the shell forked for it) is running: the
 * fork's command line holds the mark too, until it execs, so the check reads the program's name.
 */
export const sleeper = (mark: string) =>
  `sleep ${mark} & until read -r name < /proc/$!/comm 2>/dev/null && [ "$name" = sleep ]; do :; done; echo up; wait`;
