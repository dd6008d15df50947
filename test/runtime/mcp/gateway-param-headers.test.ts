import { describe, expect, it } from 'vitest';
import { decodeParamHeader, paramHeaderMismatch, paramHeaderRejection } from '../../../src/runtime/mcp/gateway-param-headers.js';

const schema = { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, note: { type: 'string' } } };
const headers = (values: Record<string, string>) => (name: string) => values[name] ?? null;

describe('Mcp-Param headers (SEP-2243)', () => {
  it('reads =?base64?…?= as Base64 and anything else as it is', () => {
    expect(decodeParamHeader('=?base64?SGVsbG8=?=')).toBe('Hello');
    expect(decodeParamHeader('SGVsbG8=')).toBe('SGVsbG8=');
    expect(decodeParamHeader('=?base64?SGVsbG8=')).toBe('=?base64?SGVsbG8=');
    expect(decodeParamHeader('=?base64?SGVsbG8?=')).toBeUndefined();
    expect(decodeParamHeader('=?base64?SGVs!!!bG8=?=')).toBeUndefined();
  });

  it('asks that a declared argument agree with its header, and only a declared one', () => {
    expect(paramHeaderMismatch(schema, { region: 'eu', note: 'x' }, headers({ 'mcp-param-region': 'eu' }))).toBeUndefined();
    expect(paramHeaderMismatch(schema, { note: 'x' }, headers({}))).toBeUndefined();
    expect(paramHeaderMismatch(schema, { region: 'eu' }, headers({}))).toMatch(/must also be sent in the Mcp-Param-Region header/);
    expect(paramHeaderMismatch(schema, { region: 'eu' }, headers({ 'mcp-param-region': 'us' }))).toMatch(/does not match/);
    expect(paramHeaderMismatch(schema, { region: 'eu' }, headers({ 'mcp-param-region': '=?base64?ZX?=' }))).toMatch(/not valid Base64/);
  });

  it('refuses a disagreeing tools/call with 400 and HeaderMismatch, keeping its id', async () => {
    const call = (header: string) =>
      new Request('http://gateway/mcp', {
        method: 'POST',
        headers: { 'mcp-param-region': header },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'where', arguments: { region: 'eu' } } }),
      });
    const rejection = await paramHeaderRejection(call('us'), () => schema, 1024);
    expect(rejection?.status).toBe(400);
    expect(await rejection?.json()).toMatchObject({ id: 7, error: { code: -32020 } });
    expect(await paramHeaderRejection(call('eu'), () => schema, 1024)).toBeUndefined();
  });
});
