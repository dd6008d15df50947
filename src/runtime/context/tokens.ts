// A token estimate for what the provider has not counted yet. Pure.
// ~4 characters per token is the usual figure for English prose and code with current BPE
// tokenizers; JSON-escaped file text runs close to it. A real tokenizer per provider would cost a
// dependency per model family for a figure that only decides when to clear or compact, and the
// provider's own count replaces the estimate after every request.
import type { ContentBlock } from '../tool/types.js';
import type { Message } from '../providers/types.js';

export const CHARS_PER_TOKEN = 4;
/** Anthropic bills an image by its size, up to ~1,600 tokens for one that fills its 1.15-megapixel limit. */
export const IMAGE_TOKENS = 1_600;
/** Per-block framing (role markers, ids, JSON punctuation) the text alone does not show. */
const BLOCK_OVERHEAD_TOKENS = 8;

export function textTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

function blockTokens(block: ContentBlock): number {
  return block.type === 'text' ? textTokens(block.text) : IMAGE_TOKENS;
}

export function messageTokens(message: Message): number {
  let tokens = 0;
  for (const part of message.content) {
    tokens += BLOCK_OVERHEAD_TOKENS;
    if (part.type === 'text') tokens += textTokens(part.text);
    else if (part.type === 'image') tokens += IMAGE_TOKENS;
    else if (part.type === 'tool_use') tokens += textTokens(part.name) + textTokens(JSON.stringify(part.input) ?? '');
    else if (part.type === 'tool_result') for (const block of part.content) tokens += blockTokens(block);
  }
  return tokens;
}

export function messagesTokens(messages: readonly Message[]): number {
  return messages.reduce((sum, message) => sum + messageTokens(message), 0);
}
