import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../../src/runtime/tool/define.js';
import { ToolRegistry } from '../../../src/runtime/registry/registry.js';

const tool = (name: string, source: 'builtin' | 'mcp' | 'user', extra: { aliases?: string[]; enabled?: boolean } = {}) =>
  defineTool({
    name,
    source,
    aliases: extra.aliases,
    description: `${name} from ${source}`,
    inputSchema: z.object({}),
    isEnabled: () => extra.enabled ?? true,
    call: async () => source,
  });

describe('ToolRegistry', () => {
  it('resolves aliases and lets built-ins win name clashes whatever the order', () => {
    const registry = new ToolRegistry();
    expect(registry.register(tool('Read', 'mcp'))).toBe(true);
    expect(registry.register(tool('Read', 'builtin', { aliases: ['read_file'] }))).toBe(true);
    expect(registry.register(tool('Read', 'user'))).toBe(false);
    expect(registry.get('Read')?.source).toBe('builtin');
    expect(registry.get('read_file')?.name).toBe('Read');
    expect(registry.get('nope')).toBeUndefined();
  });

  it('keeps a stable order (source, then name) and drops disabled and wholly denied tools from the pool', () => {
    const registry = new ToolRegistry();
    for (const t of [
      tool('zeta', 'user'),
      tool('mcp__s__b', 'mcp'),
      tool('Write', 'builtin'),
      tool('mcp__s__a', 'mcp'),
      tool('Bash', 'builtin'),
      tool('off', 'user', { enabled: false }),
    ])
      registry.register(t);
    expect(registry.names()).toEqual(['Bash', 'Write', 'mcp__s__a', 'mcp__s__b', 'off', 'zeta']);
    expect(registry.pool({ isDeniedWhole: (t) => t.name === 'Write' }).map((t) => t.name)).toEqual([
      'Bash',
      'mcp__s__a',
      'mcp__s__b',
      'zeta',
    ]);
  });

  it('a standing filter (the deny rules that refuse a tool whole) applies to every pool', () => {
    const registry = new ToolRegistry({ isDeniedWhole: (t) => t.name === 'WebFetch' });
    for (const t of [tool('WebFetch', 'builtin'), tool('Read', 'builtin')]) registry.register(t);
    expect(registry.pool().map((t) => t.name)).toEqual(['Read']);
    expect(registry.pool({ isDeniedWhole: (t) => t.name === 'Read' })).toEqual([]);
    // Still found by name, so a call is refused by the policy with the rule named, not "unknown tool".
    expect(registry.get('WebFetch')?.name).toBe('WebFetch');
  });

  it('notifies once per batch of changes', () => {
    const registry = new ToolRegistry();
    let changes = 0;
    registry.onChange(() => changes++);
    registry.batch(() => {
      for (let i = 0; i < 100; i++) registry.register(tool(`t${i}`, 'mcp'));
      registry.unregister('t5');
    });
    expect(changes).toBe(1);
    registry.register(tool('single', 'user'));
    expect(changes).toBe(2);
    expect(registry.unregister('t5')).toBe(false);
    expect(registry.all()).toHaveLength(100);
  });
});
