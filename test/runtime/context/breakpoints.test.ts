// Where cache_control breakpoints go in an Anthropic request: pure placement on SDK params.
import type Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { MAX_BREAKPOINTS, placeCacheBreakpoints } from '../../../src/runtime/context/breakpoints.js';
import { toAnthropicParams } from '../../../src/runtime/providers/anthropic-request.js';
import type { Message, UserPart } from '../../../src/runtime/providers/types.js';
import { PNG_1PX, READ_TOOL } from '../providers/helpers.js';

type Params = Anthropic.MessageCreateParamsStreaming;

/** Paths of the blocks carrying cache_control, e.g. "tools[1]", "system[0]", "messages[2][0]". */
function markers(params: Params): string[] {
  const found: string[] = [];
  const marked = (block: object): boolean => 'cache_control' in block && Boolean(block.cache_control);
  for (const [i, tool] of (params.tools ?? []).entries()) if (marked(tool)) found.push(`tools[${i}]`);
  if (Array.isArray(params.system)) for (const [i, b] of params.system.entries()) if (marked(b)) found.push(`system[${i}]`);
  for (const [i, m] of params.messages.entries()) {
    if (typeof m.content === 'string') continue;
    for (const [j, b] of m.content.entries()) if (marked(b)) found.push(`messages[${i}][${j}]`);
  }
  return found;
}

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const call = (id: string): Message => ({
  role: 'assistant',
  content: [{ type: 'tool_use', id, name: 'Read', input: { file_path: `${id}.txt` } }],
});
const result = (id: string, extra: UserPart[] = []): Message => ({
  role: 'user',
  content: [
    { type: 'tool_result', toolUseId: id, toolName: 'Read', content: [{ type: 'text', text: `body of ${id}` }], isError: false },
    ...extra,
  ],
});

function params(messages: Message[], cache = true): Params {
  return toAnthropicParams({
    model: 'm',
    system: 'You are a test.',
    messages,
    tools: [READ_TOOL, { ...READ_TOOL, name: 'Grep' }],
    ...(cache ? { cache: { ttl: '5m' as const } } : {}),
  });
}

describe('placeCacheBreakpoints', () => {
  it('marks the last tool, the system prompt, the newest message and the previous request’s newest one', () => {
    const p = params([user('go'), call('a'), result('a'), call('b'), result('b')]);
    expect(markers(p)).toEqual(['tools[1]', 'system[0]', 'messages[2][0]', 'messages[4][0]']);
    expect(p.system).toEqual([{ type: 'text', text: 'You are a test.', cache_control: { type: 'ephemeral' } }]);
  });

  it('never uses more than the API’s four, however long the history', () => {
    const history: Message[] = [user('go')];
    for (let i = 0; i < 30; i++) history.push(call(`c${i}`), result(`c${i}`));
    expect(markers(params(history))).toHaveLength(MAX_BREAKPOINTS);
  });

  it('puts the moving breakpoint on the last block that can carry one: after images, not on thinking or empty text', () => {
    const image = { type: 'image', mediaType: 'image/png', data: PNG_1PX } as const;
    const withImage = params([user('go'), call('a'), result('a', [image])]);
    expect(markers(withImage)).toContain('messages[2][1]');
    const raw: Params = {
      model: 'm',
      max_tokens: 10,
      stream: true,
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [{ type: 'text', text: 'x' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'later' },
            { type: 'text', text: '' },
          ],
        },
      ],
    };
    expect(markers(placeCacheBreakpoints(raw, '5m'))).toEqual(['messages[0][0]', 'messages[2][0]']);
    const thinking: Params = {
      ...raw,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'q' },
            { type: 'thinking', thinking: 't', signature: 's' },
          ],
        },
      ],
    };
    expect(markers(placeCacheBreakpoints(thinking, '5m'))).toEqual(['messages[0][0]']);
  });

  it('asks for the 1-hour TTL only when chosen, and adds nothing without a cache option', () => {
    const hour = toAnthropicParams({ model: 'm', system: 's', messages: [user('go')], tools: [], cache: { ttl: '1h' } });
    expect(hour.system).toEqual([{ type: 'text', text: 's', cache_control: { type: 'ephemeral', ttl: '1h' } }]);
    expect(markers(params([user('go')], false))).toEqual([]);
  });
});
