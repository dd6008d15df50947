import { describe, expect, it } from 'vitest';
import { createToolSearchTool } from '../../../src/runtime/search/tool.js';
import { ToolIndex } from '../../../src/runtime/search/tool-index.js';
import { namesInResultText } from '../../../src/runtime/search/result-text.js';
import type { ToolContext, SessionState } from '../../../src/runtime/tool/types.js';
import { POOL } from './fixtures.js';

const session: SessionState = { id: 's', dir: '.', cwd: '.', roots: ['.'], fileState: new Map() };
const ctx: ToolContext = { signal: new AbortController().signal, session, toolUseId: 't1', onProgress: () => {} };

async function validate(tool: ReturnType<typeof createToolSearchTool>, input: unknown) {
  const schema = tool.inputSchema;
  if (!schema) throw new Error('ToolSearch must have an input schema');
  return schema['~standard'].validate(input);
}

describe('ToolSearch tool', () => {
  const index = new ToolIndex();
  index.add(POOL);
  const tool = createToolSearchTool(() => index);

  it('is a read-only, concurrency-safe built-in named ToolSearch', () => {
    expect(tool.name).toBe('ToolSearch');
    expect(tool.source).toBe('builtin');
    expect(tool.isReadOnly({ query: 'x' })).toBe(true);
    expect(tool.isConcurrencySafe({ query: 'x' })).toBe(true);
    expect(Object.keys((tool.inputJSONSchema as { properties: object }).properties)).toEqual(['query', 'max_results']);
  });

  it('validates input: query required and non-empty, max_results 1-50', async () => {
    expect(await validate(tool, { query: 'weather' })).not.toHaveProperty('issues');
    for (const bad of [
      {},
      { query: '  ' },
      { query: 'x', max_results: 0 },
      { query: 'x', max_results: 51 },
      { query: 'x', max_results: 2.5 },
    ]) {
      expect(await validate(tool, bad)).toHaveProperty('issues');
    }
  });

  it('returns names with one-line descriptions and servers, at most max_results', async () => {
    const output = await tool.call({ query: 'github', max_results: 2 }, ctx);
    const { content, isError } = tool.toModel(output, { maxChars: 30_000 });
    const text = content[0].type === 'text' ? content[0].text : '';
    expect(isError).toBe(false);
    expect(namesInResultText(text)).toHaveLength(2);
    expect(text).toMatch(/^1\. mcp__github__\w+ \[github\] — /m);
    expect(text).toMatch(/next request/);
  });

  it('select: with only unknown names is an error with a did-you-mean', async () => {
    const output = await tool.call({ query: 'select:mcp__github__create_isue' }, ctx);
    const { content, isError } = tool.toModel(output, { maxChars: 30_000 });
    expect(isError).toBe(true);
    expect(content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('Did you mean "mcp__github__create_issue"') });
  });

  it('no match says what to try instead', async () => {
    const output = await tool.call({ query: 'zzzqqq' }, ctx);
    const { content, isError } = tool.toModel(output, { maxChars: 30_000 });
    expect(isError).toBeFalsy();
    expect(content[0]).toMatchObject({ text: expect.stringMatching(/No tools matched .*select:Name/) });
  });
});
