// Neutral request → Anthropic Messages API parameters. Pure.
import type Anthropic from '@anthropic-ai/sdk';
import type { ContentBlock } from '../tool/types.js';
import { mergeTurns, toolInputObject } from './content.js';
import { anthropicThinking } from './reasoning.js';
import { sanitizeSchema } from './schema.js';
import { placeCacheBreakpoints } from '../context/breakpoints.js';
import { withDeferredTools } from './anthropic-deferred.js';
import type { AssistantPart, Message, ModelRequest, ToolSpec, UserPart } from './types.js';

/** Output tokens asked for when the request does not say; room for a large file write. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 16_384;

/** Image types the Messages API accepts in base64 sources. */
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
type ImageType = (typeof IMAGE_TYPES)[number];

type Block = Anthropic.ContentBlockParam;
type ResultBlock = Anthropic.TextBlockParam | Anthropic.ImageBlockParam;

function isImageType(mediaType: string): mediaType is ImageType {
  return (IMAGE_TYPES as readonly string[]).includes(mediaType);
}

function contentBlock(block: ContentBlock): ResultBlock | undefined {
  if (block.type === 'text') return block.text === '' ? undefined : { type: 'text', text: block.text };
  if (!isImageType(block.mediaType)) {
    return { type: 'text', text: `[An image of type ${block.mediaType} was left out: the API accepts ${IMAGE_TYPES.join(', ')}.]` };
  }
  return { type: 'image', source: { type: 'base64', media_type: block.mediaType, data: block.data } };
}

function userBlocks(parts: readonly UserPart[]): Block[] {
  return parts.flatMap((part): Block[] => {
    if (part.type !== 'tool_result') return [contentBlock(part)].filter((b): b is ResultBlock => b !== undefined);
    const content = part.content.map(contentBlock).filter((b): b is ResultBlock => b !== undefined);
    return [
      {
        type: 'tool_result',
        tool_use_id: part.toolUseId,
        ...(content.length > 0 ? { content } : {}),
        ...(part.isError ? { is_error: true } : {}),
      },
    ];
  });
}

function assistantBlocks(parts: readonly AssistantPart[]): Block[] {
  return parts.map((part): Block => {
    if (part.type === 'tool_use') return { type: 'tool_use', id: part.id, name: part.name, input: toolInputObject(part.input) };
    // Thinking blocks go back exactly as received: the API checks their signatures.
    return part;
  });
}

/** Messages in Anthropic form: alternating, non-empty turns, tool results first (see mergeTurns). */
export function toAnthropicMessages(messages: readonly Message[]): Anthropic.MessageParam[] {
  return mergeTurns(messages).map((m) =>
    m.role === 'user' ? { role: 'user', content: userBlocks(m.content) } : { role: 'assistant', content: assistantBlocks(m.content) },
  );
}

export function toAnthropicTools(tools: readonly ToolSpec[]): Anthropic.Tool[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: sanitizeSchema(tool.inputSchema, 'anthropic') as Anthropic.Tool.InputSchema,
  }));
}

/**
 * `deferredTools`: tools a ToolSearch result loaded go as deferred tools, referenced from the
 * result (see anthropic-deferred.ts); otherwise they are ordinary tools after the others.
 */
export function toAnthropicParams(
  request: ModelRequest,
  options: { deferredTools?: boolean } = {},
): Anthropic.MessageCreateParamsStreaming {
  const params: Anthropic.MessageCreateParamsStreaming = {
    model: request.model,
    ...anthropicThinking(request.reasoning, request.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS),
    messages: toAnthropicMessages(request.messages),
    ...(request.system !== '' ? { system: request.system } : {}),
    ...(request.tools.length > 0 ? { tools: toAnthropicTools(request.tools) } : {}),
    stream: true,
  };
  const loaded = new Set(request.tools.filter((tool) => tool.loadedBySearch).map((tool) => tool.name));
  const shaped = options.deferredTools ? withDeferredTools(params, loaded) : params;
  return request.cache ? placeCacheBreakpoints(shaped, request.cache.ttl) : shaped;
}
