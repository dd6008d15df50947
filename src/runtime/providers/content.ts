// Shared pieces of message translation: tool inputs the model sent, tool result text. Pure.
import type { ContentBlock, ImageBlock } from '../tool/types.js';
import type { Message, UserPart } from './types.js';
import { isRecord } from '../util/record.js';
import { jsonDepth, MAX_ARGUMENT_DEPTH } from '../util/json-depth.js';

export type ToolResultPart = Extract<UserPart, { type: 'tool_result' }>;

/** Key under which unparseable arguments are sent back, so the model can see what it sent. */
export const RAW_ARGUMENTS_KEY = 'invalid_json_arguments';

/**
 * A tool_use input as an object, as APIs require in history: the parsed object, the object a
 * valid JSON string holds, or the raw text wrapped under RAW_ARGUMENTS_KEY when it was not an
 * object (or nests too deeply to be encoded again: the SDKs would overflow the stack).
 */
export function toolInputObject(input: unknown): Record<string, unknown> {
  if (isRecord(input)) return input;
  if (typeof input === 'string') {
    if (jsonDepth(input) > MAX_ARGUMENT_DEPTH) return { [RAW_ARGUMENTS_KEY]: input };
    try {
      const parsed: unknown = JSON.parse(input.trim() === '' ? '{}' : input);
      if (isRecord(parsed)) return parsed;
    } catch {
      // not JSON: wrapped below
    }
    return { [RAW_ARGUMENTS_KEY]: input };
  }
  return { [RAW_ARGUMENTS_KEY]: JSON.stringify(input) ?? String(input) };
}

/** A tool_use input as a JSON object text (OpenAI `arguments`); a valid string is kept verbatim. */
export function toolInputJSON(input: unknown): string {
  if (typeof input === 'string') {
    try {
      if (isRecord(JSON.parse(input))) return input;
    } catch {
      // falls through to the wrapped form
    }
  }
  return JSON.stringify(toolInputObject(input));
}

export function imagesOf(content: readonly ContentBlock[]): ImageBlock[] {
  return content.filter((b): b is ImageBlock => b.type === 'image');
}

export function dataUrl(image: ImageBlock): string {
  return `data:${image.mediaType};base64,${image.data}`;
}

/**
 * The text of a tool result for dialects without an error flag: errors are prefixed "Error: "
 * so the model can tell; `imageNote` explains where the images went.
 */
export function toolResultText(part: ToolResultPart, imageNote?: string): string {
  const texts = part.content.filter((b) => b.type === 'text').map((b) => b.text);
  let text = texts.join('\n');
  if (part.isError && !/^error\b/i.test(text)) text = `Error: ${text}`.trimEnd();
  if (imageNote !== undefined) text = text === '' ? imageNote : `${text}\n${imageNote}`;
  // Several servers reject an empty tool message.
  return text === '' ? '(no output)' : text;
}

export function imageNoteText(count: number, where: string): string {
  return count === 1 ? `[1 image from this tool result is ${where}.]` : `[${count} images from this tool result are ${where}.]`;
}

/**
 * Messages with empty text and empty turns dropped and consecutive turns of one role merged,
 * tool results first in each user turn: every API wants the results that answer an assistant
 * turn to come right after it, and Anthropic wants alternating, non-empty turns.
 */
export function mergeTurns(messages: readonly Message[]): Message[] {
  const out: Message[] = [];
  const nonEmpty = <P extends { type: string }>(parts: readonly P[]): P[] =>
    parts.filter((p) => !(p.type === 'text' && 'text' in p && p.text === ''));
  for (const message of messages) {
    const last = out.at(-1);
    const replace = last?.role === message.role;
    let merged: Message;
    if (message.role === 'user') {
      const all = [...(replace && last.role === 'user' ? last.content : []), ...nonEmpty(message.content)];
      merged = { role: 'user', content: [...all.filter((p) => p.type === 'tool_result'), ...all.filter((p) => p.type !== 'tool_result')] };
    } else {
      merged = {
        role: 'assistant',
        content: [...(replace && last.role === 'assistant' ? last.content : []), ...nonEmpty(message.content)],
      };
    }
    if (merged.content.length === 0) continue;
    if (replace) out[out.length - 1] = merged;
    else out.push(merged);
  }
  return out;
}
