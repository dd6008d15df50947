import { describe, expect, it } from 'vitest';
import { parentCallId } from '../../src/cli/inner-calls.js';
import { ClaudeStreamJson } from '../../src/cli/stream-json.js';
import type { AgentEvent } from '../../src/runtime/agent/events.js';

describe('a program call among the turn’s calls', () => {
  const running =
    (...ids: string[]) =>
    (id: string) =>
      ids.includes(id);

  it('belongs to the running call its id extends with .N', () => {
    expect(parentCallId('toolu_1.3', running('toolu_1'))).toBe('toolu_1');
    expect(parentCallId('a.b.12', running('a.b'))).toBe('a.b');
  });

  it('is the model’s own call when nothing running made it', () => {
    expect(parentCallId('toolu_1', running('toolu_1'))).toBeUndefined();
    expect(parentCallId('toolu_1.3', running())).toBeUndefined();
    expect(parentCallId('call.x', running('call'))).toBeUndefined();
    expect(parentCallId('.1', running(''))).toBeUndefined();
  });
});

describe('stream-json lines for a program’s calls', () => {
  const result = (id: string, name: string, text: string, isError = false) => ({
    toolUseId: id,
    toolName: name,
    durationMs: 1,
    isError,
    content: [{ type: 'text' as const, text }],
  });

  it('come as they happen, marked with the RunCode call as parent; the model’s own calls come with the reply', () => {
    const stream = new ClaudeStreamJson('s', 'm');
    const events: AgentEvent[] = [
      { type: 'tool_start', toolUseId: 'p', toolName: 'RunCode', input: { code: 'x' } },
      { type: 'tool_start', toolUseId: 'p.1', toolName: 'Read', input: { file_path: 'a' } },
      { type: 'tool_end', toolUseId: 'p.1', toolName: 'Read', result: result('p.1', 'Read', 'one') },
      { type: 'tool_start', toolUseId: 'p.2', toolName: 'Bash', input: { command: 'rm x' } },
      { type: 'tool_end', toolUseId: 'p.2', toolName: 'Bash', result: result('p.2', 'Bash', 'denied', true) },
      { type: 'tool_end', toolUseId: 'p', toolName: 'RunCode', result: result('p', 'RunCode', 'out') },
    ];
    const lines = events.flatMap((event) => stream.lines(event));
    expect(lines).toEqual([
      expect.objectContaining({
        type: 'assistant',
        parent_tool_use_id: 'p',
        message: expect.objectContaining({ content: [{ type: 'tool_use', id: 'p.1', name: 'Read', input: { file_path: 'a' } }] }),
      }),
      expect.objectContaining({
        type: 'user',
        parent_tool_use_id: 'p',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'p.1', content: 'one', is_error: false }] },
      }),
      expect.objectContaining({ type: 'assistant', parent_tool_use_id: 'p' }),
      expect.objectContaining({
        type: 'user',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'p.2', content: 'denied', is_error: true }] },
      }),
    ]);
  });
});
