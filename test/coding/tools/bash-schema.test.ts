// Bash's parameters are Claude Code's (command, timeout?, description?, and run_in_background?
// where jobs are kept: builtinTools always keeps them); the sandbox escalation `sandbox` is
// offered only when the tool runs commands through a sandbox; `response_format` is
// the optional result format every tool with formats gets (an addition to the design's list).
import { describe, expect, it } from 'vitest';
import { bashTool } from '../../../src/coding/tools/bash.js';
import type { BashToolOptions } from '../../../src/coding/tools/bash.js';
import { BashJobs, builtinTools } from '../../../src/coding/tools/index.js';
import type { AnyTool } from '../../../src/runtime/tool/types.js';

const wrap: NonNullable<BashToolOptions['wrap']> = async (argv) => ({ file: argv[0], args: argv.slice(1), sandboxed: true });

function parameters(tool: AnyTool): { properties: string[]; required: unknown } {
  const schema = tool.inputJSONSchema as { properties?: Record<string, unknown>; required?: unknown };
  return { properties: Object.keys(schema.properties ?? {}).sort(), required: schema.required };
}

async function parse(tool: AnyTool, input: unknown): Promise<unknown> {
  const result = await tool.inputSchema!['~standard'].validate(input);
  return result.issues ? { issues: result.issues.map((issue) => issue.message) } : result.value;
}

const bashOf = (tools: AnyTool[]): AnyTool => tools.find((tool) => tool.name === 'Bash')!;

describe('Bash parameters', () => {
  it('without a sandbox: exactly command, timeout, description (and response_format)', async () => {
    for (const tool of [bashTool(), bashTool({ graceMs: 100 })]) {
      expect(parameters(tool)).toEqual({ properties: ['command', 'description', 'response_format', 'timeout'], required: ['command'] });
    }
    for (const tool of [bashOf(builtinTools()), bashOf(builtinTools({ bash: {} })), bashTool({ jobs: new BashJobs() })]) {
      expect(parameters(tool)).toEqual({
        properties: ['command', 'description', 'response_format', 'run_in_background', 'timeout'],
        required: ['command'],
      });
    }
    // A stray `sandbox` from a model that saw it elsewhere is dropped, not an error.
    expect(await parse(bashTool(), { command: 'ls', sandbox: false })).toEqual({ command: 'ls' });
  });

  it('with a sandbox: the sandbox escalation is offered and kept', async () => {
    for (const [tool, jobs] of [
      [bashTool({ wrap }), false],
      [bashOf(builtinTools({ bash: { wrap } })), true],
    ] as const) {
      expect(parameters(tool)).toEqual({
        properties: ['command', 'description', 'response_format', ...(jobs ? ['run_in_background'] : []), 'sandbox', 'timeout'],
        required: ['command'],
      });
      expect(await parse(tool, { command: 'ls', sandbox: false })).toEqual({ command: 'ls', sandbox: false });
    }
  });
});
