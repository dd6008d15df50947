// Shared test helpers: a provider pointed at a stand-in, and event collection.
import { afterEach } from 'vitest';
import { startStandin, type ScriptStep, type Standin } from '../../support/standin/index.js';
import {
  createProvider,
  type ModelProvider,
  type ModelRequest,
  type ModelStreamEvent,
  type ProviderName,
} from '../../../src/runtime/providers/index.js';

export const DIALECTS: readonly ProviderName[] = ['anthropic', 'openai', 'openai-responses'];

export function providerFor(
  provider: ProviderName,
  baseURL: string,
  extra: { maxRetries?: number; firstByteTimeoutMs?: number; idleTimeoutMs?: number } = {},
): Promise<ModelProvider> {
  // An empty env: tests never depend on the machine's keys or endpoints.
  return createProvider({ provider, baseURL, apiKey: 'test-key', retryBaseMs: 1, env: {}, ...extra });
}

export async function collect(stream: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** Events, or the error the stream threw after them. */
export async function collectUntilError(stream: AsyncIterable<ModelStreamEvent>): Promise<{ events: ModelStreamEvent[]; error?: unknown }> {
  const events: ModelStreamEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
    return { events };
  } catch (error) {
    return { events, error };
  }
}

export const READ_TOOL = {
  name: 'Read',
  description: 'Reads a file.',
  inputSchema: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] },
};

export function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'standin-model',
    system: 'You are a test.',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Read a.txt' }] }],
    tools: [READ_TOOL],
    ...overrides,
  };
}

export function ends(events: ModelStreamEvent[]): Extract<ModelStreamEvent, { type: 'tool_call_end' }>[] {
  return events.filter((e): e is Extract<ModelStreamEvent, { type: 'tool_call_end' }> => e.type === 'tool_call_end');
}

export function text(events: ModelStreamEvent[]): string {
  return events.map((e) => (e.type === 'text_delta' ? e.text : '')).join('');
}

/** A 1×1 transparent PNG. */
export const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** Starts a stand-in server per call (one per test), each closed after its test. */
export function standinPerTest(): (dialect: ProviderName, script: ScriptStep[]) => Promise<Standin> {
  let standin: Standin | undefined;
  afterEach(async () => {
    await standin?.close();
    standin = undefined;
  });
  return async (dialect, script) => {
    standin = await startStandin({ dialect, script });
    return standin;
  };
}
