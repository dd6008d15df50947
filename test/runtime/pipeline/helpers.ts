// Small tools and runtimes for core tests.
import { z } from 'zod';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { defineTool } from '../../../src/runtime/tool/define.js';
import { createSession } from '../../../src/runtime/tool/session.js';
import { ToolRegistry } from '../../../src/runtime/registry/registry.js';
import { createRuntime } from '../../../src/runtime/pipeline/runtime.js';
import { allowAll } from '../../../src/runtime/pipeline/policies.js';
import type { RuntimeContext, ToolEvent } from '../../../src/runtime/pipeline/types.js';
import type { AnyTool } from '../../../src/runtime/tool/types.js';

export function tempDir(prefix = 'wield-core-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

export const echoTool = defineTool({
  name: 'Echo',
  aliases: ['echo_tool'],
  description: 'Echoes its input',
  inputSchema: z.object({ text: z.string(), times: z.number().int().min(1).max(5).optional(), loud: z.boolean().optional() }),
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  call: async (input) => (input.loud ? input.text.toUpperCase() : input.text).repeat(input.times ?? 1),
});

export function makeRuntime(tools: AnyTool[], overrides: Partial<RuntimeContext> = {}): RuntimeContext & { events: ToolEvent[] } {
  const registry = new ToolRegistry();
  for (const tool of tools) registry.register(tool);
  const dir = tempDir();
  const events: ToolEvent[] = [];
  const rt = createRuntime({
    registry,
    session: createSession({ cwd: dir, dir: path.join(dir, '.session') }),
    policy: allowAll,
    emit: (event) => events.push(event),
    ...overrides,
  });
  return Object.assign(rt, { events });
}

export function textOf(result: { content: Array<{ type: string; text?: string }> }): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
}
