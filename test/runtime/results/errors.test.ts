// Every way a call can end in an error names its kind (errorKind), so programs switch on the
// kind rather than on the text; the text stays what the model reads.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../../src/runtime/tool/define.js';
import { ToolError, type ErrorKind } from '../../../src/runtime/tool/types.js';
import { runToolCall } from '../../../src/runtime/pipeline/run.js';
import { runBatch } from '../../../src/runtime/scheduler/batch.js';
import { denyAll } from '../../../src/runtime/pipeline/policies.js';
import type { HookHandler } from '../../../src/runtime/hooks/types.js';
import { repairHistory } from '../../../src/runtime/agent/history.js';
import { echoTool, makeRuntime } from '../pipeline/helpers.js';

const signal = new AbortController().signal;
const call = (name: string, input: unknown, id = 'c1') => ({ id, name, input });

const picky = defineTool({
  name: 'Picky',
  description: 'fails in the ways a tool can',
  inputSchema: z.object({ v: z.string() }),
  validateInput: (input) => (input.v === 'bad' ? { ok: false, message: 'v must not be "bad"' } : { ok: true }),
  call: async (input) => {
    if (input.v === 'toolerror') throw new ToolError('expected failure');
    if (input.v === 'crash') throw new TypeError('boom');
    return input.v;
  },
  toModel: (output) => ({ content: [{ type: 'text', text: output }], isError: output === 'own-error' }),
});

async function kindOf(name: string, input: unknown, overrides: Parameters<typeof makeRuntime>[1] = {}): Promise<ErrorKind | undefined> {
  const result = await runToolCall(call(name, input), makeRuntime([echoTool, picky], overrides), signal);
  expect(result.isError).toBe(result.errorKind !== undefined);
  return result.errorKind;
}

describe('errorKind', () => {
  it('is absent on a result that is not an error', async () => {
    expect(await kindOf('Echo', { text: 'a' })).toBeUndefined();
  });

  it('names the stage that ended the call', async () => {
    expect(await kindOf('Ecko', { text: 'a' })).toBe('unknown_tool');
    expect(await kindOf('', {})).toBe('unknown_tool');
    expect(await kindOf('Echo', '{"text": ')).toBe('invalid_input');
    expect(await kindOf('Echo', { times: 9 })).toBe('invalid_input');
    expect(await kindOf('Picky', { v: 'bad' })).toBe('invalid_input');
    expect(await kindOf('Echo', { text: 'a' }, { policy: denyAll })).toBe('denied');
    const asking = { decide: () => ({ behavior: 'ask' as const, reason: 'needs approval' }) };
    expect(await kindOf('Echo', { text: 'a' }, { policy: asking })).toBe('denied');
    expect(await kindOf('Echo', { text: 'a' }, { policy: asking, askPermission: async () => ({ behavior: 'deny' }) })).toBe('denied');
    expect(await kindOf('Picky', { v: 'toolerror' })).toBe('tool_failed');
    expect(await kindOf('Picky', { v: 'crash' })).toBe('tool_failed');
    expect(await kindOf('Picky', { v: 'own-error' })).toBe('tool_failed');
  });

  it('tells a hook that stops a call from a permission denial', async () => {
    const hooks: HookHandler[] = [
      {
        event: 'PreToolUse',
        matcher: 'Echo',
        run: async (input) => (input.tool_input?.text === 'block' ? { block: { reason: 'no' } } : {}),
      },
      {
        event: 'PreToolUse',
        matcher: 'Echo',
        run: async (input) => (input.tool_input?.text === 'deny' ? { permissionDecision: 'deny', permissionDecisionReason: 'no' } : {}),
      },
      {
        event: 'PostToolUse',
        run: async (input) =>
          input.tool_input?.text === 'veto' ? { replaceResult: { content: [{ type: 'text', text: 'withheld' }], isError: true } } : {},
      },
    ];
    expect(await kindOf('Echo', { text: 'block' }, { hooks })).toBe('hook_blocked');
    expect(await kindOf('Echo', { text: 'deny' }, { hooks })).toBe('hook_blocked');
    expect(await kindOf('Echo', { text: 'veto' }, { hooks })).toBe('hook_blocked');
    expect(await kindOf('Echo', { text: 'fine' }, { hooks })).toBeUndefined();
  });

  it('marks calls an abort stopped, before or while they ran, as interrupted', async () => {
    const before = new AbortController();
    before.abort();
    const [notStarted] = await runBatch([call('Echo', { text: 'a' })], makeRuntime([echoTool]), { signal: before.signal });
    expect(notStarted.errorKind).toBe('interrupted');

    const during = new AbortController();
    const slow = defineTool({
      name: 'Slow',
      description: 'waits for the abort',
      inputSchema: z.object({}),
      interruptBehavior: () => 'cancel',
      call: (_input, ctx) =>
        new Promise<string>((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('stopped')))),
    });
    const running = runBatch([call('Slow', {})], makeRuntime([slow]), { signal: during.signal });
    setTimeout(() => during.abort(), 20);
    const [stopped] = await running;
    expect(stopped).toMatchObject({ isError: true, errorKind: 'interrupted' });
  });

  it('a resumed history pairs a call that never got its result with an interrupted one', () => {
    const repaired = repairHistory([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Echo', input: {} }] },
    ]);
    expect(repaired[2]).toMatchObject({
      role: 'user',
      content: [{ type: 'tool_result', toolUseId: 't1', isError: true, errorKind: 'interrupted' }],
    });
  });
});
