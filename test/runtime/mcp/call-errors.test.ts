// What a failed tools/call tells the model, and which failures drop the connection: pure.
import { ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { classifyCallError, telltaleStderrLine } from '../../../src/runtime/mcp/call-errors.js';

const classify = (error: unknown) => classifyCallError('srv', 'tool', error, 30_000, ' (its stderr said: boom)');

describe('classifyCallError', () => {
  it('a timeout keeps the connection and names the setting to raise', () => {
    const failure = classify(new SdkError(SdkErrorCode.RequestTimeout, 'timed out'));
    expect(failure.lost).toBeUndefined();
    expect(failure.message).toContain('did not answer "tool" within 30 s');
    expect(failure.message).toContain('raise "timeout"');
  });

  it('a closed connection is lost (restarted next call) and carries the stderr hint', () => {
    const failure = classify(new SdkError(SdkErrorCode.ConnectionClosed, 'closed'));
    expect(failure.lost).toBe('it exited during a call');
    expect(failure.message).toContain('crashed or disconnected during "tool" (its stderr said: boom)');
  });

  it("a server's refusal and an unusable answer keep the connection", () => {
    expect(classify(new ProtocolError(ProtocolErrorCode.InvalidParams, 'bad input'))).toEqual({
      message: expect.stringContaining('rejected "tool"'),
    });
    expect(classify(new SdkError(SdkErrorCode.ClientHttpUnexpectedContent, 'odd'))).toEqual({
      message: expect.stringContaining('sent an unusable answer to "tool"'),
    });
  });

  it('anything else is the transport failing: reconnected next call', () => {
    expect(classify(new TypeError('fetch failed'))).toEqual({
      lost: 'fetch failed',
      message: expect.stringContaining('failed during "tool": fetch failed. It will be reconnected'),
    });
  });
});

describe('telltaleStderrLine', () => {
  it('picks the error line over a stack and the Node.js footer, a Python exception, or else the last line', () => {
    const node = [
      'node:internal/modules/cjs/loader:1228',
      '  throw err;',
      '  ^',
      '',
      "Error: Cannot find module 'x'",
      'Require stack:',
      '    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)',
      '    at node:internal/main/run_main_module:28:49 {',
      "  code: 'MODULE_NOT_FOUND',",
      '}',
      '',
      'Node.js v20.19.0',
    ];
    expect(telltaleStderrLine(node)).toBe("Error: Cannot find module 'x'");
    expect(telltaleStderrLine(['Traceback (most recent call last):', '  File "s.py", line 1', 'ValueError: bad port'])).toBe(
      'ValueError: bad port',
    );
    expect(telltaleStderrLine(['listening', 'config missing: set API_KEY'])).toBe('config missing: set API_KEY');
    expect(telltaleStderrLine([])).toBeUndefined();
  });
});
