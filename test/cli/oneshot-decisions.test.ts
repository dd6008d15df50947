// The one-shot run's pure decisions: the summary, the prompt check, the MCP notices.
import { describe, expect, it } from 'vitest';
import { promptProblem, summarize, unavailableServers } from '../../src/cli/oneshot.js';
import type { AgentResult } from '../../src/runtime/agent/events.js';
import type { McpServerStatus } from '../../src/runtime/mcp/server-status.js';
import { serverStatus } from '../support/server-status.js';

function result(overrides: Partial<AgentResult>): AgentResult {
  return {
    messages: [],
    answer: 'a',
    turns: 1,
    toolCalls: 0,
    usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
    context: {
      window: 200_000,
      tokens: 2,
      compactions: 0,
      cleared: 0,
      compactionUsage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    },
    stopReason: 'end_turn',
    ...overrides,
  };
}

describe('summarize', () => {
  it('counts only a finished answer as success; a cut-off or refused one is an error with its reason', () => {
    expect(summarize(result({}), 's')).toMatchObject({ isError: false, stopReason: 'end_turn' });
    for (const stopReason of ['max_tokens', 'refusal', 'max_turns', 'error'] as const) {
      expect(summarize(result({ stopReason, error: 'why' }), 's')).toMatchObject({ isError: true, stopReason, error: 'why' });
    }
  });
});

describe('promptProblem', () => {
  it('refuses an empty or blank prompt and says how to pass one', () => {
    for (const prompt of ['', ' ', '\n\t ']) expect(promptProblem(prompt)).toMatch(/prompt is empty.*-p "/);
    expect(promptProblem('hi')).toBeUndefined();
    expect(promptProblem('  hi  ')).toBeUndefined();
  });
});

describe('unavailableServers', () => {
  const server = (name: string, state: McpServerStatus['state'], error?: string) => serverStatus(name, state, { error });

  it('names each server that failed to connect, with its error', () => {
    expect(unavailableServers([server('a', 'connected'), server('b', 'failed', 'spawn ENOENT'), server('c', 'disabled')])).toEqual([
      'MCP server "b" is not available (spawn ENOENT); its tools are left out of this run.',
    ]);
  });

  it('says a server still connecting past its connect timeout may still join the run', () => {
    expect(unavailableServers([server('slow', 'connecting', 'no answer within 30 s yet')])).toEqual([
      'MCP server "slow" is not available (no answer within 30 s yet); it is still connecting, and its tools join this run when it is up.',
    ]);
  });
});
