// The pool as a program sees it: compact signatures from JSON Schema.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../../src/runtime/tool/define.js';
import { accessor, typeOf } from '../../../src/runtime/codemode/signatures.js';
import { describeRunCode, MAX_LISTED_TOOLS } from '../../../src/runtime/codemode/tool.js';

describe('signatures', () => {
  it.each([
    [{ type: 'string' }, 'string'],
    [{ type: 'integer' }, 'number'],
    [{ type: ['string', 'null'] }, 'string | null'],
    [{ enum: ['a', 'b'] }, '"a" | "b"'],
    [{ const: 3 }, '3'],
    [{ type: 'array', items: { type: 'number' } }, 'number[]'],
    [{ type: 'array', items: { enum: ['x', 'y'] } }, 'Array<"x" | "y">'],
    [{ anyOf: [{ type: 'string' }, { type: 'boolean' }] }, 'string | boolean'],
    [
      { type: 'object', properties: { a: { type: 'string' }, 'b-c': { type: 'number' } }, required: ['a'] },
      '{ a: string; "b-c"?: number }',
    ],
    [{ type: 'object', additionalProperties: { type: 'number' } }, '{ [key: string]: number }'],
    [{ type: 'object' }, 'Record<string, unknown>'],
    [{}, 'unknown'],
    [
      {
        type: 'array',
        items: { type: 'array', items: { type: 'array', items: { type: 'array', items: { type: 'array', items: { type: 'string' } } } } },
      },
      'unknown[][][][][]',
    ],
  ])('%j → %s', (schema, expected) => {
    expect(typeOf(schema)).toBe(expected);
  });

  it('names a tool as a program calls it', () => {
    expect(accessor('Read')).toBe('tools.Read');
    expect(accessor('mcp__github__list-issues')).toBe('tools["mcp__github__list-issues"]');
  });

  it('the description lists the pool, without RunCode, and points past its limit to ToolSearch', () => {
    const tool = (name: string) =>
      defineTool({
        name,
        description: `Does ${name}. More detail here.`,
        inputSchema: z.object({ path: z.string(), n: z.number().optional() }),
        call: async () => '',
      });
    const text = describeRunCode([tool('Alpha'), tool('RunCode')], '/');
    expect(text).toContain('// Does Alpha.\ntools.Alpha(input: { path: string; n?: number }): Promise<string>');
    expect(text).not.toContain('tools.RunCode');
    const many = Array.from({ length: MAX_LISTED_TOOLS + 3 }, (_, i) => tool(`T${i}`));
    expect(describeRunCode(many, '/')).toContain('// …and 3 more: find them with await tools.ToolSearch({query})');
    // Deferred tools are said without a count, so the description stays the same as servers add tools.
    const deferred = describeRunCode([tool('Alpha')], '/', true);
    expect(deferred).toContain(
      '// More tools are deferred: call ToolSearch yourself to load their definitions, then call them here by name.',
    );
    expect(describeRunCode([tool('Alpha')], '/')).not.toContain('deferred');
  });
});
