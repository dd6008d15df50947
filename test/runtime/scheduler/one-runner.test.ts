// The same call ends the same way through runBatch and runToolCall: both are the one call runner.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runToolCall } from '../../../src/runtime/pipeline/run.js';
import { runBatch } from '../../../src/runtime/scheduler/batch.js';
import { defineTool } from '../../../src/runtime/tool/define.js';
import type { AskPermission, RuntimeContext, ToolCallRequest } from '../../../src/runtime/pipeline/types.js';
import { echoTool, makeRuntime, textOf } from '../pipeline/helpers.js';

let started: () => void = () => undefined;
const slow = defineTool({
  name: 'Slow',
  description: 'waits until aborted',
  inputSchema: z.object({}),
  interruptBehavior: () => 'cancel',
  call: () =>
    new Promise<string>((resolve) => {
      started();
      setTimeout(() => resolve('finished'), 60_000).unref();
    }),
});

type Entry = (
  call: ToolCallRequest,
  rt: RuntimeContext,
  signal: AbortSignal,
) => Promise<{ isError: boolean; errorKind?: string; content: Array<{ type: string; text?: string }> }>;
const entries: Record<string, Entry> = {
  runBatch: async (call, rt, signal) => (await runBatch([call], rt, { signal }))[0],
  runToolCall: (call, rt, signal) => runToolCall(call, rt, signal),
};

describe.each(Object.entries(entries))('%s', (_name, run) => {
  it('an abort while the call runs ends it interrupted at once', async () => {
    const controller = new AbortController();
    const running = new Promise<void>((resolve) => (started = resolve));
    const result = run({ id: '1', name: 'Slow', input: {} }, makeRuntime([slow]), controller.signal);
    await running;
    controller.abort();
    expect(await result).toMatchObject({ isError: true, errorKind: 'interrupted' });
  });

  it('a PreToolUse hook asking holds under allowAll: nobody to ask, so denied', async () => {
    const rt = makeRuntime([echoTool], { hooks: [{ event: 'PreToolUse', name: 'ask', run: async () => ({ permissionDecision: 'ask' }) }] });
    const result = await run({ id: '1', name: 'Echo', input: { text: 'a' } }, rt, new AbortController().signal);
    expect(result).toMatchObject({ isError: true, errorKind: 'denied' });
  });

  it('an answer of the wrong shape is refused, naming the right one', async () => {
    const askPermission = (async () => ({ allow: true })) as unknown as AskPermission;
    const hooks = [{ event: 'PreToolUse' as const, name: 'ask', run: async () => ({ permissionDecision: 'ask' as const }) }];
    const result = await run(
      { id: '1', name: 'Echo', input: { text: 'a' } },
      makeRuntime([echoTool], { hooks, askPermission }),
      new AbortController().signal,
    );
    expect(result).toMatchObject({ isError: true, errorKind: 'denied' });
    expect(textOf(result)).toContain("behavior: 'allow'");
  });
});
