// Neutral request → OpenAI Chat Completions parameters (also the dialect of Ollama, vLLM,
// llama.cpp server and LM Studio). Pure.
import type OpenAI from 'openai';
import type { ContentBlock } from '../tool/types.js';
import { dataUrl, imageNoteText, imagesOf, mergeTurns, toolInputJSON, toolResultText } from './content.js';
import { openAIEffort } from './reasoning.js';
import { openaiParameters, type StrictMode } from './strict.js';
import type { AssistantPart, Message, ModelRequest, ToolSpec, UserPart } from './types.js';

type ChatMessage = OpenAI.ChatCompletionMessageParam;
type UserContent = OpenAI.ChatCompletionContentPartText | OpenAI.ChatCompletionContentPartImage;

function userContent(blocks: readonly ContentBlock[]): UserContent[] {
  return blocks.map((b) => (b.type === 'text' ? { type: 'text', text: b.text } : { type: 'image_url', image_url: { url: dataUrl(b) } }));
}

/** Plain string content when there is only text: local servers handle it best. */
function userMessage(content: UserContent[]): OpenAI.ChatCompletionUserMessageParam {
  if (content.every((c) => c.type === 'text')) {
    return { role: 'user', content: content.map((c) => (c.type === 'text' ? c.text : '')).join('\n') };
  }
  return { role: 'user', content };
}

/**
 * Tool messages are text-only in Chat Completions, so a result's images go in a user message
 * right after the tool messages, and the tool text says so.
 */
function userTurn(parts: readonly UserPart[]): ChatMessage[] {
  const toolMessages: ChatMessage[] = [];
  const followUp: UserContent[] = [];
  const plain: ContentBlock[] = [];
  for (const part of parts) {
    if (part.type !== 'tool_result') {
      plain.push(part);
      continue;
    }
    const images = imagesOf(part.content);
    const note = images.length > 0 ? imageNoteText(images.length, 'in the next user message') : undefined;
    toolMessages.push({ role: 'tool', tool_call_id: part.toolUseId, content: toolResultText(part, note) });
    if (images.length > 0) {
      followUp.push({ type: 'text', text: `Images from the ${part.toolName} result (${part.toolUseId}):` });
      followUp.push(...userContent(images));
    }
  }
  const rest = [...followUp, ...userContent(plain)];
  return rest.length > 0 ? [...toolMessages, userMessage(rest)] : toolMessages;
}

function assistantTurn(parts: readonly AssistantPart[]): ChatMessage {
  const text = parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
  const calls: OpenAI.ChatCompletionMessageFunctionToolCall[] = parts.flatMap((p) =>
    p.type === 'tool_use' ? [{ id: p.id, type: 'function' as const, function: { name: p.name, arguments: toolInputJSON(p.input) } }] : [],
  );
  return {
    role: 'assistant',
    content: text === '' && calls.length > 0 ? null : text,
    ...(calls.length > 0 ? { tool_calls: calls } : {}),
  };
}

export function toChatMessages(system: string, messages: readonly Message[]): ChatMessage[] {
  // "system" rather than "developer": local servers know only the former, and OpenAI maps it.
  const out: ChatMessage[] = system !== '' ? [{ role: 'system', content: system }] : [];
  for (const message of mergeTurns(messages)) {
    if (message.role === 'user') out.push(...userTurn(message.content));
    else out.push(assistantTurn(message.content));
  }
  return out;
}

export function toChatTools(tools: readonly ToolSpec[], strict?: StrictMode): OpenAI.ChatCompletionFunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, ...openaiParameters(tool.name, tool.inputSchema, strict) },
  }));
}

/**
 * `official` is true for api.openai.com, whose newer models accept only max_completion_tokens;
 * the compatible servers read max_tokens.
 */
export function toChatParams(request: ModelRequest, official: boolean, strict?: StrictMode): OpenAI.ChatCompletionCreateParamsStreaming {
  const limit =
    request.maxTokens === undefined ? {} : official ? { max_completion_tokens: request.maxTokens } : { max_tokens: request.maxTokens };
  const effort = openAIEffort(request.reasoning);
  return {
    model: request.model,
    messages: toChatMessages(request.system, request.messages),
    ...(request.tools.length > 0 ? { tools: toChatTools(request.tools, strict) } : {}),
    ...limit,
    ...(request.cache?.key !== undefined ? { prompt_cache_key: request.cache.key } : {}),
    ...(effort !== undefined ? { reasoning_effort: effort } : {}),
    stream: true,
    stream_options: { include_usage: true },
  };
}
