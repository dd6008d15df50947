// The CLI exports traces over OTLP/HTTP when the standard environment asks for it, in protobuf
// (the default) and JSON, to a local collector stand-in; without the variables nothing is sent.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { traceExportPlan } from '../../src/cli/tracing.js';
import { startStandin } from '../support/standin/index.js';
import { type CollectedSpan, startCollector } from '../support/otlp-collector.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, runCli, tempDir } from './helpers.js';

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

function byName(spans: CollectedSpan[], name: string): CollectedSpan {
  const found = spans.find((span) => span.name === name);
  if (!found) throw new Error(`no span "${name}" among ${spans.map((span) => span.name).join(', ')}`);
  return found;
}

describe('trace export plan (pure)', () => {
  it('is off without an endpoint, reads the protocol and the service name, refuses grpc with a reason', () => {
    expect(traceExportPlan({})).toBeUndefined();
    expect(traceExportPlan({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x' })).toEqual({ protocol: 'http/protobuf', serviceName: 'wield' });
    expect(
      traceExportPlan({
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://x/v1/traces',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_SERVICE_NAME: 'bot',
      }),
    ).toEqual({
      protocol: 'http/json',
      serviceName: 'bot',
    });
    expect(traceExportPlan({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x', OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
    expect(traceExportPlan({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toEqual({
      skip: expect.stringContaining('"grpc" is not supported'),
    });
  });
});

describe.each(['http/protobuf', 'http/json'] as const)('wield -p with OTEL_EXPORTER_OTLP_PROTOCOL=%s', (protocol) => {
  it('exports invoke_agent, turn, chat and execute_tool spans to the collector', async () => {
    const collector = await startCollector();
    const cwd = tempDir('wield-trace-cwd-');
    writeFileSync(path.join(cwd, 'notes.txt'), 'hello\n');
    const standin = await startStandin({
      dialect: 'anthropic',
      script: [
        {
          toolCalls: [{ id: 'toolu_1', name: 'Read', arguments: { file_path: 'notes.txt' } }],
          usage: { inputTokens: 12, outputTokens: 3 },
        },
        { text: 'It says hello.', usage: { inputTokens: 20, outputTokens: 4 } },
      ],
    });
    try {
      const env = cleanEnv(tempDir('wield-trace-home-'), {
        ...providerEnv('anthropic', standin.url),
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
        OTEL_SERVICE_NAME: 'wield-test',
      });
      const run = await runCli(cli, [...providerArgs('anthropic'), '-p', 'what is in notes.txt?'], { cwd, env });
      // Nothing but the session line text-mode -p always prints: no exporter error.
      expect(run.stderr).toMatch(/^wield: session [\w-]+ \(continue it: wield --resume [\w-]+\)\n$/);
      expect(run.stdout).toContain('It says hello.');
      expect(collector.contentTypes[0]).toBe(protocol === 'http/json' ? 'application/json' : 'application/x-protobuf');
      const agent = byName(collector.spans, 'invoke_agent wield');
      const turn = byName(collector.spans, 'turn 1');
      const chat = collector.spans.find((span) => span.name === 'chat standin-model' && span.parentSpanId === turn.spanId) as CollectedSpan;
      const tool = byName(collector.spans, 'execute_tool Read');
      expect(agent.resource['service.name']).toBe('wield-test');
      expect(turn.parentSpanId).toBe(agent.spanId);
      expect(tool.parentSpanId).toBe(turn.spanId);
      expect(tool.traceId).toBe(agent.traceId);
      expect(chat.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.usage.input_tokens': 12,
        'gen_ai.usage.output_tokens': 3,
      });
      expect(tool.attributes).toMatchObject({
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'Read',
        'gen_ai.tool.call.id': 'toolu_1',
        'gen_ai.tool.type': 'function',
        'wield.permission.decision': 'allow',
      });
      // Inputs and outputs are not recorded unless asked.
      expect(tool.attributes['gen_ai.tool.call.arguments']).toBeUndefined();
      expect(tool.attributes['gen_ai.tool.call.result']).toBeUndefined();
    } finally {
      await standin.close();
      await collector.close();
    }
  });
});

it('sends nothing without the variables', async () => {
  const collector = await startCollector();
  try {
    const cwd = tempDir('wield-trace-cwd-');
    writeFileSync(path.join(cwd, 'a.txt'), 'a\n');
    const run = await runCli(cli, ['call', 'Read', '{"file_path": "a.txt"}'], { cwd, env: cleanEnv(tempDir('wield-trace-home-')) });
    expect(run.code).toBe(0);
    expect(collector.contentTypes).toEqual([]);
  } finally {
    await collector.close();
  }
});
