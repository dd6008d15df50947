// Neutral messages → each dialect's request, pure.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toAnthropicMessages, toAnthropicParams } from '../../../src/runtime/providers/anthropic-request.js';
import { mergeTurns, toolInputJSON, toolInputObject } from '../../../src/runtime/providers/content.js';
import { toChatMessages, toChatParams } from '../../../src/runtime/providers/openai-chat-request.js';
import { toResponsesInput, toResponsesParams } from '../../../src/runtime/providers/openai-responses-request.js';
import { RAW_ARGUMENTS_KEY, type AssistantPart, type Message, type UserPart } from '../../../src/runtime/providers/index.js';
import { PNG_1PX, request } from './helpers.js';

const result = (id: string, text: string, isError = false): UserPart => ({
  type: 'tool_result',
  toolUseId: id,
  toolName: 'Read',
  content: [{ type: 'text', text }],
  isError,
});

const twoCalls: Message[] = [
  { role: 'user', content: [{ type: 'text', text: 'go' }] },
  {
    role: 'assistant',
    content: [
      { type: 'tool_use', id: 'a', name: 'Read', input: { file_path: 'a' } },
      { type: 'tool_use', id: 'b', name: 'Read', input: { file_path: 'b' } },
    ],
  },
  { role: 'user', content: [result('a', 'A')] },
  { role: 'user', content: [{ type: 'text', text: 'and then' }, result('b', 'B')] },
];

describe('Anthropic messages', () => {
  it('puts consecutive tool results in one user message, results first', () => {
    const out = toAnthropicMessages(twoCalls);
    expect(out.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(out[2].content).toEqual([
      { type: 'tool_result', tool_use_id: 'a', content: [{ type: 'text', text: 'A' }] },
      { type: 'tool_result', tool_use_id: 'b', content: [{ type: 'text', text: 'B' }] },
      { type: 'text', text: 'and then' },
    ]);
  });

  it('drops empty text and empty turns, and explains unsupported image types', () => {
    const out = toAnthropicMessages([
      {
        role: 'user',
        content: [
          { type: 'text', text: '' },
          { type: 'image', mediaType: 'image/bmp', data: 'Qk0=' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: '' }] },
    ]);
    expect(out).toEqual([{ role: 'user', content: [{ type: 'text', text: expect.stringMatching(/image\/bmp was left out/) }] }]);
  });

  it('uses system, default max_tokens and omits tools when there are none', () => {
    const params = toAnthropicParams(request({ tools: [] }));
    expect(params).toMatchObject({ system: 'You are a test.', max_tokens: 16384, stream: true });
    expect(params).not.toHaveProperty('tools');
  });
});

describe('Chat Completions messages', () => {
  it('sends tool messages right after the assistant turn, then the user text', () => {
    const out = toChatMessages('sys', twoCalls);
    expect(out.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'user']);
    expect(out[2]).toMatchObject({ content: null, tool_calls: [{ id: 'a', function: { arguments: '{"file_path":"a"}' } }, { id: 'b' }] });
    expect(out.slice(3)).toEqual([
      { role: 'tool', tool_call_id: 'a', content: 'A' },
      { role: 'tool', tool_call_id: 'b', content: 'B' },
      { role: 'user', content: 'and then' },
    ]);
  });

  it('uses max_completion_tokens on the official endpoint', () => {
    expect(toChatParams(request({ maxTokens: 50 }), true)).toMatchObject({ max_completion_tokens: 50 });
    expect(toChatParams(request({ maxTokens: 50 }), true)).not.toHaveProperty('max_tokens');
  });

  it('sends user images as image_url parts', () => {
    const out = toChatMessages('', [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', mediaType: 'image/png', data: PNG_1PX },
        ],
      },
    ]);
    expect(out).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_1PX}` } },
        ],
      },
    ]);
  });

  it('never sends an empty tool message', () => {
    const out = toChatMessages('', [
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 'x', toolName: 'T', content: [], isError: false }] },
    ]);
    expect(out).toEqual([{ role: 'tool', tool_call_id: 'x', content: '(no output)' }]);
  });
});

describe('Responses input', () => {
  it('maps calls and outputs to function_call items and the system prompt to instructions', () => {
    expect(toResponsesInput(twoCalls)).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] },
      { type: 'function_call', call_id: 'a', name: 'Read', arguments: '{"file_path":"a"}' },
      { type: 'function_call', call_id: 'b', name: 'Read', arguments: '{"file_path":"b"}' },
      { type: 'function_call_output', call_id: 'a', output: 'A' },
      { type: 'function_call_output', call_id: 'b', output: 'B' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'and then' }] },
    ]);
    expect(toResponsesParams(request())).toMatchObject({
      instructions: 'You are a test.',
      tools: [{ type: 'function', name: 'Read', strict: false }],
    });
  });
});

describe('tool inputs sent back in history', () => {
  it('keeps valid JSON text verbatim and wraps anything else', () => {
    expect(toolInputJSON('{"a": 1}')).toBe('{"a": 1}');
    expect(toolInputJSON('[1]')).toBe(JSON.stringify({ [RAW_ARGUMENTS_KEY]: '[1]' }));
    expect(toolInputObject('')).toEqual({});
  });

  it('always produces an object / JSON object text (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.object(), fc.integer(), fc.constant(null)), (input) => {
        const obj = toolInputObject(input);
        expect(typeof obj === 'object' && obj !== null && !Array.isArray(obj)).toBe(true);
        const parsed: unknown = JSON.parse(toolInputJSON(input));
        expect(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)).toBe(true);
      }),
    );
  });
});

describe('mergeTurns', () => {
  const userPart = fc.oneof(
    fc.string({ maxLength: 3 }).map((text): UserPart => ({ type: 'text', text })),
    fc.string({ minLength: 1, maxLength: 3 }).map((id) => result(id, 'r')),
  );
  const message = fc.oneof(
    fc.array(userPart, { maxLength: 3 }).map((content): Message => ({ role: 'user', content })),
    fc
      .array(
        fc.string({ maxLength: 3 }).map((text) => ({ type: 'text' as const, text })),
        { maxLength: 2 },
      )
      .map((content): Message => ({ role: 'assistant', content })),
  );

  it('alternates roles, drops empties, puts results first and keeps every part in order (property)', () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 8 }), (messages) => {
        const out = mergeTurns(messages);
        for (let i = 1; i < out.length; i++) expect(out[i].role).not.toBe(out[i - 1].role);
        for (const m of out) {
          expect(m.content.length).toBeGreaterThan(0);
          if (m.role === 'user') {
            const kinds = m.content.map((p) => p.type === 'tool_result');
            expect(kinds).toEqual([...kinds].sort((a, b) => Number(b) - Number(a)));
          }
        }
        const nonEmpty = (ms: Message[]) =>
          ms.flatMap((m): (UserPart | AssistantPart)[] => m.content).filter((p) => p.type !== 'text' || p.text !== '');
        const key = (p: unknown) => JSON.stringify(p);
        expect(nonEmpty(out).map(key).sort()).toEqual(nonEmpty(messages).map(key).sort());
      }),
    );
  });
});
