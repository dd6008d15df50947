import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, DEFAULT_MAX_RESULT_CHARS } from '../../../src/runtime/tool/define.js';

describe('defineTool', () => {
  const tool = defineTool({ name: 'Thing', description: 'does a thing', inputSchema: z.object({ n: z.number() }), call: async () => 'ok' });

  it('fills every left-out behaviour with the safe choice', async () => {
    expect(tool.isReadOnly({ n: 1 })).toBe(false);
    expect(tool.isConcurrencySafe({ n: 1 })).toBe(false);
    expect(tool.isDestructive({ n: 1 })).toBe(false);
    expect(tool.interruptBehavior()).toBe('block');
    expect(tool.isEnabled()).toBe(true);
    expect(await tool.checkPermissions({ n: 1 }, {} as never)).toEqual({ behavior: 'passthrough' });
    expect(tool.maxResultChars).toBe(DEFAULT_MAX_RESULT_CHARS);
    expect(tool.source).toBe('user');
    expect(tool.aliases).toEqual([]);
  });

  it('derives the JSON Schema models see from a zod schema, without $schema', () => {
    expect(tool.inputJSONSchema).toMatchObject({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'] });
    expect(tool.inputJSONSchema.$schema).toBeUndefined();
  });

  it('accepts a raw JSON Schema and string or function descriptions', () => {
    const raw = defineTool({
      name: 'Raw',
      description: (ctx) => `in ${ctx.cwd}`,
      inputJSONSchema: { type: 'object' },
      call: async () => 1,
    });
    expect(raw.description({ cwd: '/x' })).toBe('in /x');
    expect(raw.toModel(1, { maxChars: 10 })).toEqual({ content: [{ type: 'text', text: '1' }] });
  });

  it('rejects names providers would refuse and tools without a schema', () => {
    expect(() => defineTool({ name: 'bad name', description: '', inputJSONSchema: {}, call: async () => 1 })).toThrow(/A-Za-z0-9_-/);
    expect(() => defineTool({ name: 'x'.repeat(65), description: '', inputJSONSchema: {}, call: async () => 1 })).toThrow();
    expect(() => defineTool({ name: 'NoSchema', description: '', call: async () => 1 })).toThrow(/inputSchema/);
    // Plain JavaScript callers can leave out what the types require.
    const untyped = defineTool as unknown as (def: Record<string, unknown>) => unknown;
    expect(() => untyped({ description: '', inputJSONSchema: {}, call: async () => 1 })).toThrow(/name undefined must be/);
    expect(() => untyped({ name: 'NoCall', description: '', inputJSONSchema: {} })).toThrow(/give call/);
    expect(() => defineTool({ name: 'Str', description: '', inputJSONSchema: { type: 'string' }, call: async () => 1 })).toThrow(
      /must describe a JSON object/,
    );
    expect(() => defineTool({ name: 'ZodStr', description: '', inputSchema: z.string(), call: async () => 1 })).toThrow(
      /must describe a JSON object/,
    );
  });
});
