// The stdio guard of `wield mcp serve`: whole lines within the limit pass, however they are
// chunked; a longer one is dropped and answered with a JSON-RPC error naming its id.
import { describe, expect, it } from 'vitest';
import { messageId, StdioLineGuard } from '../../../src/runtime/mcp/stdio-guard.js';

async function through(chunks: string[], limit: number): Promise<{ passed: string; refused: string[] }> {
  const refused: string[] = [];
  const guard = new StdioLineGuard((error) => refused.push(error), limit);
  let passed = '';
  guard.on('data', (chunk: Buffer) => {
    passed += chunk.toString('utf8');
  });
  const ended = new Promise((resolve) => guard.on('end', resolve));
  for (const chunk of chunks) guard.write(Buffer.from(chunk));
  guard.end();
  await ended;
  return { passed, refused };
}

describe('messageId', () => {
  it('reads the id when it leads or ends the message, else says null', () => {
    expect(messageId('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"x":"', '"}}')).toBe(7);
    expect(messageId('{ "id" : "a\\"b", "jsonrpc": "2.0"', '}')).toBe('a"b');
    expect(messageId('{"method":"tools/call","params":{"x":"', 'xx"}},"jsonrpc":"2.0","id":12}')).toBe(12);
    expect(messageId('{"jsonrpc":"2.0","method":"tools/call","params":{"id":3', '"params":{"id":3}}')).toBeNull();
    expect(messageId('{"id":1.5,', '}')).toBeNull();
  });
});

describe('StdioLineGuard', () => {
  it('passes lines within the limit whole, however they are chunked', async () => {
    const out = await through(['{"a":1}\n{"b"', ':2}\n', '{"c":3}\n'], 10);
    expect(out).toEqual({ passed: '{"a":1}\n{"b":2}\n{"c":3}\n', refused: [] });
  });

  it('drops a line past the limit, answers it with its id, and goes on', async () => {
    const big = `{"jsonrpc":"2.0","id":4,"params":"${'x'.repeat(50)}"}`;
    const out = await through(['{"a":1}\n', big.slice(0, 20), `${big.slice(20)}\n{"b":2}\n`], 30);
    expect(out.passed).toBe('{"a":1}\n{"b":2}\n');
    expect(out.refused).toHaveLength(1);
    expect(JSON.parse(out.refused[0])).toMatchObject({ jsonrpc: '2.0', id: 4, error: { code: -32600 } });
    expect(JSON.parse(out.refused[0]).error.message).toContain(`${big.length + 1} bytes`);
  });
});
