// Response formats through the real pipeline: the parameter the model sees, the choice reaching
// toModel, the tool's own schema never seeing it, and the format's budget applied after mapping.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runToolCall } from '../../../src/runtime/pipeline/run.js';
import { toolSpec } from '../../../src/runtime/registry/spec.js';
import { defineTool } from '../../../src/runtime/tool/define.js';
import type { HookHandler } from '../../../src/runtime/hooks/types.js';
import { makeRuntime, textOf } from './helpers.js';

const seen: Array<{ input: unknown; format?: string; ctxFormat?: string }> = [];

const listTool = defineTool<{ n: number }, { items: string[]; ctxFormat?: string }>({
  name: 'List',
  description: 'Lists n items',
  inputSchema: z.strictObject({ n: z.number().int().min(1) }),
  responseFormats: {
    options: { concise: 'only the count, to know how many', detailed: 'every item, to read them' },
    default: 'concise',
    maxResultChars: { detailed: 600 },
  },
  isReadOnly: () => true,
  call: async (input, ctx) => {
    seen.push({ input, ctxFormat: ctx.responseFormat });
    return { items: Array.from({ length: input.n }, (_, i) => `item number ${i + 1}`) };
  },
  toModel: (output, budget, format) => {
    seen[seen.length - 1].format = format;
    const text = format === 'detailed' ? output.items.join('\n') : `${output.items.length} items`;
    return { content: [{ type: 'text', text: `${text} (budget ${budget.maxChars})` }] };
  },
});

describe('response formats in the contract', () => {
  it('adds an optional response_format enum, described per option, to the schema the model sees', () => {
    const schema = toolSpec(listTool, '/').inputSchema as {
      properties: Record<string, { enum?: string[]; description?: string }>;
      required?: string[];
    };
    expect(schema.properties.response_format.enum).toEqual(['concise', 'detailed']);
    expect(schema.properties.response_format.description).toContain('"concise": only the count, to know how many');
    expect(schema.properties.response_format.description).toContain('Default "concise"');
    expect(schema.required).toEqual(['n']);
  });

  it('strips the choice before the tool schema (strict here) and passes it to call context and toModel', async () => {
    const rt = makeRuntime([listTool]);
    seen.length = 0;
    const detailed = await runToolCall(
      { id: 'a', name: 'List', input: { n: 3, response_format: 'detailed' } },
      rt,
      new AbortController().signal,
    );
    expect(detailed.isError).toBe(false);
    expect(textOf(detailed)).toBe('item number 1\nitem number 2\nitem number 3 (budget 600)');
    expect(seen[0]).toEqual({ input: { n: 3 }, ctxFormat: 'detailed', format: 'detailed' });
    const implicit = await runToolCall({ id: 'b', name: 'List', input: '{"n": 2}' }, rt, new AbortController().signal);
    expect(textOf(implicit)).toBe('2 items (budget 30000)');
    expect(seen[1].format).toBe('concise');
  });

  it('applies the format budget after mapping: the detailed result past 600 characters is spilled, head and tail kept', async () => {
    const rt = makeRuntime([listTool]);
    const result = await runToolCall(
      { id: 'c', name: 'List', input: { n: 200, response_format: 'detailed' } },
      rt,
      new AbortController().signal,
    );
    const text = textOf(result);
    expect(text.length).toBeLessThan(1_000);
    expect(text).toContain('item number 1\n');
    expect(text).toContain('item number 200');
    const file = /saved in (\S+)\./.exec(text)?.[1];
    expect(file && fs.readFileSync(file, 'utf8')).toContain('item number 117');
  });

  it('refuses an unknown format with the options and the default', async () => {
    const rt = makeRuntime([listTool]);
    const result = await runToolCall(
      { id: 'd', name: 'List', input: { n: 1, response_format: 'brief' } },
      rt,
      new AbortController().signal,
    );
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'Invalid input for List: "response_format" must be one of "concise", "detailed" (got "brief"). Leave it out for "concise".',
    );
  });

  it('shows hooks the chosen format, and a hook may change it', async () => {
    const inputs: unknown[] = [];
    const hook: HookHandler = {
      event: 'PreToolUse',
      run: async (input) => {
        inputs.push(input.tool_input);
        return { updatedInput: { response_format: 'detailed' } };
      },
    };
    const rt = makeRuntime([listTool], { hooks: [hook] });
    const result = await runToolCall(
      { id: 'e', name: 'List', input: { n: 2, response_format: 'concise' } },
      rt,
      new AbortController().signal,
    );
    expect(inputs).toEqual([{ n: 2, response_format: 'concise' }]);
    expect(textOf(result)).toBe('item number 1\nitem number 2 (budget 600)');
  });

  it('tells PostToolUse hooks the format the result was mapped with (the default when the model chose none)', async () => {
    const seen: unknown[] = [];
    const hook: HookHandler = {
      event: 'PostToolUse',
      run: async (input) => {
        seen.push(input.tool_input);
        return {};
      },
    };
    const rt = makeRuntime([listTool], { hooks: [hook] });
    await runToolCall({ id: 'p1', name: 'List', input: { n: 1, response_format: 'detailed' } }, rt, new AbortController().signal);
    await runToolCall({ id: 'p2', name: 'List', input: { n: 1 } }, rt, new AbortController().signal);
    expect(seen).toEqual([
      { n: 1, response_format: 'detailed' },
      { n: 1, response_format: 'concise' },
    ]);
  });

  it('leaves response_format alone for tools without formats (an MCP tool may have its own)', async () => {
    const own = defineTool({
      name: 'Own',
      description: 'has its own response_format',
      inputJSONSchema: { type: 'object', properties: { response_format: { type: 'string' } }, additionalProperties: false },
      call: async (input) => JSON.stringify(input),
    });
    const result = await runToolCall(
      { id: 'f', name: 'Own', input: { response_format: 'markdown' } },
      makeRuntime([own]),
      new AbortController().signal,
    );
    expect(textOf(result)).toBe('{"response_format":"markdown"}');
  });

  it('defineTool rejects formats it could not offer, saying what to change', () => {
    const base = { name: 'Bad', description: 'x', inputJSONSchema: { type: 'object' }, call: async () => '' };
    expect(() => defineTool({ ...base, responseFormats: { options: { concise: 'a' }, default: 'concise' } })).toThrow(
      /at least two options/,
    );
    expect(() => defineTool({ ...base, responseFormats: { options: { concise: 'a', detailed: 'b' }, default: 'full' } })).toThrow(
      'defineTool(Bad): responseFormats.default "full" is not one of concise, detailed',
    );
    expect(() =>
      defineTool({
        ...base,
        inputJSONSchema: { type: 'object', properties: { response_format: { type: 'string' } } },
        responseFormats: { options: { concise: 'a', detailed: 'b' }, default: 'concise' },
      }),
    ).toThrow(/already has a "response_format" parameter/);
    // A defined tool spread back into defineTool (to wrap its call) brings its own parameter: fine.
    const wrapped = defineTool({ ...listTool, call: listTool.call });
    expect(wrapped.inputJSONSchema).toEqual(listTool.inputJSONSchema);
  });
});
