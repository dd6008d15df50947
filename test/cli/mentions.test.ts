import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { attachMentions, completeMention, findMentions, withAttachments } from '../../src/cli/mentions.js';
import { defineTool } from '../../src/runtime/tool/define.js';
import { ToolRegistry } from '../../src/runtime/registry/registry.js';
import { createRuntime } from '../../src/runtime/pipeline/runtime.js';
import { createSession } from '../../src/runtime/tool/session.js';
import { allowAll } from '../../src/runtime/pipeline/policies.js';
import type { PermissionPolicy } from '../../src/runtime/pipeline/types.js';

describe('@path mentions', () => {
  it('finds @file at the start of a word, quoted paths, once each, without trailing punctuation', () => {
    expect(findMentions('summarize @notes.txt, then @src/a.ts.')).toEqual(['notes.txt', 'src/a.ts']);
    expect(findMentions('@a.md and @"my file.md" and @a.md')).toEqual(['a.md', 'my file.md']);
    expect(findMentions('mail me at me@example.com')).toEqual([]);
    expect(findMentions('nothing here')).toEqual([]);
  });

  it('puts each attached file after the prompt, named', () => {
    expect(withAttachments('p', [])).toBe('p');
    expect(withAttachments('see @a', [{ path: 'a', text: '1\thello\n' }])).toBe(
      'see @a\n\nAttached with @ (read with the Read tool):\n<file path="a">\n1\thello\n</file>',
    );
  });

  it('completes the @path at the end of the line from the folder', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'wield-complete-'));
    writeFileSync(path.join(dir, 'notes.txt'), '');
    writeFileSync(path.join(dir, '.hidden'), '');
    mkdirSync(path.join(dir, 'src'));
    writeFileSync(path.join(dir, 'src', 'main.ts'), '');
    expect(completeMention('look at @no', dir)).toEqual([['@notes.txt'], '@no']);
    expect(completeMention('@', dir)).toEqual([['@notes.txt', '@src/'], '@']);
    expect(completeMention('@src/m', dir)).toEqual([['@src/main.ts'], '@src/m']);
    expect(completeMention('@.h', dir)).toEqual([['@.hidden'], '@.h']);
    expect(completeMention('no mention', dir)).toEqual([[], 'no mention']);
  });

  it('completes a path with spaces quoted, as findMentions reads it; a folder stays open for its names', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'wield-complete-space-'));
    writeFileSync(path.join(dir, 'my notes.txt'), '');
    mkdirSync(path.join(dir, 'my dir'));
    writeFileSync(path.join(dir, 'my dir', 'a b.md'), '');
    expect(completeMention('read @my', dir)).toEqual([['@"my dir/', '@"my notes.txt"'], '@my']);
    expect(completeMention('read @"my dir/a', dir)).toEqual([['@"my dir/a b.md"'], '@"my dir/a']);
    expect(findMentions('read @"my notes.txt" now')).toEqual(['my notes.txt']);
  });

  it('attaches @server:uri through ReadMcpResource, where the policy decides; other colons stay text', async () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'wield-mention-'));
    const reads: unknown[] = [];
    const readResource = defineTool({
      name: 'ReadMcpResource',
      description: 'read a resource',
      inputSchema: z.object({ server: z.string(), uri: z.string() }),
      isReadOnly: () => true,
      call: async (input) => {
        reads.push(input);
        return `contents of ${input.uri}`;
      },
    });
    const runtimeWith = (policy: PermissionPolicy) => {
      const registry = new ToolRegistry();
      registry.register(readResource);
      return createRuntime({ registry, session: createSession({ cwd }), policy });
    };
    const out = await attachMentions(
      'see @docs:file:///guide.md and @types/node or @a:b',
      runtimeWith(allowAll),
      new AbortController().signal,
    );
    expect(reads).toEqual([{ server: 'docs', uri: 'file:///guide.md' }]);
    expect(out).toMatchObject({ ok: true, notFiles: ['types/node', 'a:b'] });
    if (out.ok) {
      expect(out.prompt).toContain('server:uri resources with ReadMcpResource');
      expect(out.prompt).toContain('<resource ref="docs:file:///guide.md">\ncontents of file:///guide.md\n</resource>');
    }
    const deny: PermissionPolicy = { decide: () => ({ behavior: 'deny', reason: 'denied by rule `ReadMcpResource(docs)` (test)' }) };
    const denied = await attachMentions('see @docs:file:///guide.md', runtimeWith(deny), new AbortController().signal);
    expect(denied.ok).toBe(false);
    if (!denied.ok) expect(denied.errors[0]).toMatch(/^@docs:file:\/\/\/guide\.md: .*ReadMcpResource\(docs\)/);
    // Without the resource tools (no MCP servers configured) such a mention is plain text.
    const plain = await attachMentions(
      'see @docs:file:///guide.md',
      createRuntime({ registry: new ToolRegistry(), session: createSession({ cwd }), policy: allowAll }),
      new AbortController().signal,
    );
    expect(plain).toMatchObject({ ok: true, notFiles: ['docs:file:///guide.md'] });
  });
});
