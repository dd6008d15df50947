// Spans of the runtime with an in-memory exporter: one `execute_tool {name}` per call with the
// GenAI attributes, the permission decision, hook outcomes and budget cuts; agent, turn and chat
// spans around them; tool inputs and outputs only when asked. The real Write tool writes to disk.
import { existsSync, readFileSync } from 'node:fs';
import { context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toAISDKTools } from '../../../src/adapters/ai-sdk.js';
import { runAgent } from '../../../src/runtime/agent/loop.js';
import { runBatch } from '../../../src/runtime/scheduler/batch.js';
import { recordToolContent } from '../../../src/runtime/telemetry/tracer.js';
import { defineTool } from '../../../src/runtime/tool/define.js';
import { ToolRegistry } from '../../../src/runtime/registry/registry.js';
import { callTools, reply, scriptedProvider } from '../agent/scripted.js';
import { makeWorkspace, type Workspace } from '../../adapters/workspace.js';

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
beforeAll(() => provider.register());
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
});

let ws: Workspace;
afterEach(() => {
  exporter.reset();
  recordToolContent(false);
  ws?.cleanup();
});

const signal = new AbortController().signal;
const spansNamed = (name: string): ReadableSpan[] => exporter.getFinishedSpans().filter((span) => span.name === name);
const toolSpan = (id: string): ReadableSpan => {
  const found = exporter.getFinishedSpans().find((span) => span.attributes['gen_ai.tool.call.id'] === id);
  if (!found) throw new Error(`no span for call ${id}`);
  return found;
};

const bigTool = defineTool({
  name: 'Big',
  description: 'Prints a lot',
  inputSchema: z.object({ lines: z.number().int() }),
  isReadOnly: () => true,
  maxResultChars: 2_000,
  call: async ({ lines }) => Array.from({ length: lines }, (_, i) => `line ${i}`).join('\n'),
});

describe('execute_tool spans', () => {
  it('one per call: GenAI attributes, permission decision, hook outcome, budget cut, error.type', async () => {
    ws = makeWorkspace();
    const results = await runBatch(
      [
        { id: 'w', name: 'Write', input: { file_path: 'a.txt', content: 'hi' } },
        { id: 'd', name: 'Write', input: { file_path: 'secret.txt', content: 'x' } },
        { id: 'h', name: 'Write', input: { file_path: 'x.tmp', content: 'x' } },
        { id: 'u', name: 'Nope', input: {} },
      ],
      ws.runtime,
      { signal },
    );
    expect(results.map((result) => result.isError)).toEqual([false, true, true, true]);
    expect(readFileSync(ws.file('a.txt'), 'utf8')).toBe('hi');
    expect(spansNamed('execute_tool Write')).toHaveLength(3);
    expect(toolSpan('w').attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'Write',
      'gen_ai.tool.call.id': 'w',
      'gen_ai.tool.type': 'function',
      'wield.tool.source': 'builtin',
      'wield.permission.decision': 'allow',
      'wield.permission.by': 'policy',
    });
    expect(toolSpan('w').attributes['error.type']).toBeUndefined();
    expect(toolSpan('d').attributes).toMatchObject({
      'wield.permission.decision': 'deny',
      'wield.permission.rule': 'Write(secret.txt)',
      'error.type': expect.any(String),
    });
    expect(toolSpan('d').status.code).toBe(2);
    const hook = toolSpan('h').events.find((event) => event.name === 'wield.hook');
    expect(hook?.attributes).toMatchObject({
      'wield.hook.event': 'PreToolUse',
      'wield.hook.outcome': 'block',
      'wield.hook.reason': 'no .tmp files here',
    });
    expect(toolSpan('u').name).toBe('execute_tool Nope');
    expect(toolSpan('u').attributes['error.type']).toBeDefined();
  });

  it('a budget cut names the spill file, which holds the whole output', async () => {
    ws = makeWorkspace();
    const registry = new ToolRegistry();
    registry.register(bigTool);
    const runtime = { ...ws.runtime, resolveTool: (name: string) => registry.get(name) ?? ws.runtime.resolveTool(name) };
    await runBatch([{ id: 'b', name: 'Big', input: { lines: 2_000 } }], runtime, { signal });
    const span = toolSpan('b');
    const file = span.attributes['wield.result.spill_file'] as string;
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toContain('line 1999');
    const budget = span.events.find((event) => event.name === 'wield.result.budget');
    expect(budget?.attributes?.['wield.result.kept_chars']).toBeLessThanOrEqual(2_000);
    expect(budget?.attributes?.['wield.result.total_chars']).toBeGreaterThan(2_000);
  });

  it('records inputs and outputs only when asked', async () => {
    ws = makeWorkspace();
    await runBatch([{ id: 'off', name: 'Write', input: { file_path: 'a.txt', content: 'secret-ish' } }], ws.runtime, { signal });
    expect(toolSpan('off').attributes['gen_ai.tool.call.arguments']).toBeUndefined();
    recordToolContent(true);
    await runBatch([{ id: 'on', name: 'Write', input: { file_path: 'b.txt', content: 'shown' } }], ws.runtime, { signal });
    expect(toolSpan('on').attributes['gen_ai.tool.call.arguments']).toContain('shown');
    expect(toolSpan('on').attributes['gen_ai.tool.call.result']).toContain('b.txt');
  });
});

describe('through an adapter', () => {
  it("a framework's call gets its execute_tool span, a child of the framework's active span", async () => {
    ws = makeWorkspace();
    const write = toAISDKTools(ws.runtime).Write;
    const parent = trace.getTracer('framework').startSpan('framework step');
    await context.with(trace.setSpan(context.active(), parent), () =>
      write.execute?.({ file_path: 'f.txt', content: 'f' }, { toolCallId: 'fw1', messages: [] }),
    );
    parent.end();
    expect(readFileSync(ws.file('f.txt'), 'utf8')).toBe('f');
    expect(toolSpan('fw1').parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(toolSpan('fw1').attributes['wield.permission.decision']).toBe('allow');
  });
});

describe('agent spans', () => {
  it('invoke_agent → turn → chat and execute_tool, with token usage', async () => {
    ws = makeWorkspace();
    const registry = new ToolRegistry();
    for (const name of ws.runtime.toolNames()) registry.register(ws.runtime.resolveTool(name) as never);
    const model = scriptedProvider([
      callTools([{ id: 't1', name: 'Write', input: '{"file_path": "n.txt", "content": "n"}' }]),
      reply('done'),
    ]);
    const result = await runAgent({
      provider: model,
      model: 'scripted-1',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }],
      rt: ws.runtime,
      signal,
    });
    expect(result.answer).toBe('done');
    const [agent] = spansNamed('invoke_agent wield');
    const turns = spansNamed('turn 1').concat(spansNamed('turn 2'));
    const chats = spansNamed('chat scripted-1');
    const tool = toolSpan('t1');
    expect(turns.map((span) => span.parentSpanContext?.spanId)).toEqual([agent.spanContext().spanId, agent.spanContext().spanId]);
    expect(chats).toHaveLength(2);
    expect(chats[0].parentSpanContext?.spanId).toBe(turns[0].spanContext().spanId);
    expect(chats[0].attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'scripted-1',
      'gen_ai.usage.input_tokens': 10,
      'gen_ai.usage.output_tokens': 5,
    });
    expect(tool.parentSpanContext?.spanId).toBe(turns[0].spanContext().spanId);
    expect(agent.attributes).toMatchObject({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.request.model': 'scripted-1' });
  });
});
