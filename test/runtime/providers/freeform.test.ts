// Freeform tools through each provider's real SDK against its stand-in: the Responses API gets a
// `custom` tool with the grammar, and a streamed custom_tool_call is run and answered with
// custom_tool_call_output; Anthropic and Chat get the same tool as a one-string JSON function,
// and the grammar is checked on our side.
import { afterEach, describe, expect, it } from 'vitest';
import { runAgent } from '../../../src/runtime/agent/loop.js';
import { allowAll } from '../../../src/runtime/pipeline/policies.js';
import { createRuntime } from '../../../src/runtime/pipeline/runtime.js';
import type { ProviderName } from '../../../src/runtime/providers/types.js';
import { ToolRegistry } from '../../../src/runtime/registry/registry.js';
import { defineTool } from '../../../src/runtime/tool/define.js';
import { createSession } from '../../../src/runtime/tool/session.js';
import { startStandin, type ScriptStep, type Standin } from '../../support/standin/index.js';
import { tempDir } from '../pipeline/helpers.js';
import { providerFor } from './helpers.js';

const TALLY_GRAMMAR = 'start: item+\nitem: NAME " " INT LF\nNAME: /[a-z]+/\n%import common.INT\n%import common.LF\n';
const received: unknown[] = [];
const tally = defineTool<{ input: string }, string>({
  name: 'Tally',
  description: 'Adds up counted items, one "name count" line each.',
  freeform: { syntax: 'lark', definition: TALLY_GRAMMAR, description: 'Lines of "name count"' },
  isReadOnly: () => true,
  call: async (input) => {
    received.push(input);
    const total = input.input.split('\n').reduce((sum, line) => sum + Number(line.split(' ')[1] ?? 0), 0);
    return `${total} items`;
  },
});

let standin: Standin | undefined;
afterEach(async () => {
  await standin?.close();
  standin = undefined;
  received.length = 0;
});

async function session(dialect: ProviderName, script: ScriptStep[]) {
  standin = await startStandin({ dialect, script });
  const registry = new ToolRegistry();
  registry.register(tally);
  const dir = tempDir('wield-freeform-');
  const rt = createRuntime({ registry, session: createSession({ cwd: dir, dir: `${dir}/.session` }), policy: allowAll });
  const result = await runAgent({
    provider: await providerFor(dialect, standin.url),
    model: 'standin-model',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'count the fruit' }] }],
    rt,
    signal: new AbortController().signal,
  });
  return { result, requests: standin.requests as Array<Record<string, unknown>> };
}

describe('freeform tools', () => {
  it('Responses: a custom tool with its Lark grammar; the streamed custom_tool_call runs and is answered with custom_tool_call_output', async () => {
    const text = 'apples 3\npears 4\n';
    const { result, requests } = await session('openai-responses', [
      { toolCalls: [{ id: 'call_1', name: 'Tally', arguments: text, custom: true }] },
      { text: 'seven' },
    ]);
    expect(requests[0].tools).toEqual([
      {
        type: 'custom',
        name: 'Tally',
        description: 'Adds up counted items, one "name count" line each.',
        format: { type: 'grammar', syntax: 'lark', definition: TALLY_GRAMMAR },
      },
    ]);
    expect(received).toEqual([{ input: text }]);
    const input = requests[1].input as Array<Record<string, unknown>>;
    expect(input.slice(1)).toEqual([
      { type: 'custom_tool_call', call_id: 'call_1', name: 'Tally', input: text },
      { type: 'custom_tool_call_output', call_id: 'call_1', output: '7 items' },
    ]);
    expect(result.answer).toBe('seven');
  });

  it('Responses: text outside the grammar gets an error naming the line, the column and what was expected', async () => {
    const { requests } = await session('openai-responses', [
      { toolCalls: [{ id: 'call_2', name: 'Tally', arguments: 'apples 3\npears four\n', custom: true }] },
      { text: 'ok' },
    ]);
    expect(received).toEqual([]);
    const output = (requests[1].input as Array<Record<string, unknown>>).find((item) => item.type === 'custom_tool_call_output');
    expect(output?.output).toContain(
      'Tally: the input does not follow the tool\'s grammar: it stops matching at line 2, column 7 (at "four\\n"), where it expects /[0-9]+/',
    );
  });

  it.each(['anthropic', 'openai'] as const)('%s: the same tool as a JSON function with one string parameter', async (dialect) => {
    const { result, requests } = await session(dialect, [
      { toolCalls: [{ name: 'Tally', arguments: { input: 'kiwis 2\n' } }] },
      { text: 'two' },
    ]);
    const tools = requests[0].tools as Array<Record<string, unknown>>;
    const schema = dialect === 'anthropic' ? tools[0].input_schema : (tools[0].function as Record<string, unknown>).parameters;
    expect(schema).toMatchObject({
      type: 'object',
      properties: { input: { type: 'string', description: 'Lines of "name count"' } },
      required: ['input'],
    });
    expect(received).toEqual([{ input: 'kiwis 2\n' }]);
    expect(result.answer).toBe('two');
  });
});
