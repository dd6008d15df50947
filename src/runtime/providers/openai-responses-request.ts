// Neutral request → OpenAI Responses API parameters. Pure.
import type OpenAI from 'openai';
import type { ContentBlock } from '../tool/types.js';
import { dataUrl, mergeTurns, toolInputJSON, toolResultText, type ToolResultPart } from './content.js';
import { FREEFORM_PARAMETER } from '../tool/freeform.js';
import { openAIEffort } from './reasoning.js';
import { openaiParameters, type StrictMode } from './strict.js';
import type { Message, ModelRequest, ToolSpec } from './types.js';

type Item = OpenAI.Responses.ResponseInputItem;
type InputContent = OpenAI.Responses.ResponseInputText | OpenAI.Responses.ResponseInputImage;

function inputContent(block: ContentBlock): InputContent {
  return block.type === 'text'
    ? { type: 'input_text', text: block.text }
    : { type: 'input_image', image_url: dataUrl(block), detail: 'auto' };
}

/**
 * function_call_output (custom_tool_call_output for a freeform tool's call) takes text, or a list
 * with input_image items when the result has images.
 */
function functionCallOutput(part: ToolResultPart, custom: boolean): Item {
  const type = custom ? 'custom_tool_call_output' : 'function_call_output';
  const hasImages = part.content.some((b) => b.type === 'image');
  if (!hasImages) return { type, call_id: part.toolUseId, output: toolResultText(part) };
  const items: Array<OpenAI.Responses.ResponseInputText | OpenAI.Responses.ResponseInputImage> = [];
  const text = part.content.some((b) => b.type === 'text' && b.text !== '') || part.isError ? toolResultText(part) : undefined;
  if (text !== undefined) items.push({ type: 'input_text', text });
  for (const block of part.content) {
    if (block.type === 'image') items.push({ type: 'input_image', image_url: dataUrl(block), detail: 'auto' });
  }
  return { type, call_id: part.toolUseId, output: items };
}

/** The raw text of a freeform call as history holds it (`{input: text}`). */
function freeformText(input: unknown): string {
  if (typeof input === 'string') return input;
  const text = (input as Record<string, unknown> | null)?.[FREEFORM_PARAMETER];
  return typeof text === 'string' ? text : toolInputJSON(input);
}

/** History → input items; calls of the tools named in `freeform` go back as custom_tool_call items. */
export function toResponsesInput(messages: readonly Message[], freeform: ReadonlySet<string> = new Set()): Item[] {
  const items: Item[] = [];
  const customCalls = new Set<string>();
  for (const message of mergeTurns(messages)) {
    if (message.role === 'user') {
      const plain: InputContent[] = [];
      for (const part of message.content) {
        if (part.type === 'tool_result') items.push(functionCallOutput(part, customCalls.has(part.toolUseId)));
        else plain.push(inputContent(part));
      }
      if (plain.length > 0) items.push({ type: 'message', role: 'user', content: plain });
      continue;
    }
    for (const part of message.content) {
      if (part.type === 'text') {
        items.push({ type: 'message', role: 'assistant', content: part.text });
      } else if (part.type === 'tool_use' && freeform.has(part.name)) {
        customCalls.add(part.id);
        items.push({ type: 'custom_tool_call', call_id: part.id, name: part.name, input: freeformText(part.input) });
      } else if (part.type === 'tool_use') {
        items.push({ type: 'function_call', call_id: part.id, name: part.name, arguments: toolInputJSON(part.input) });
      }
    }
  }
  return items;
}

export function toResponsesTools(
  tools: readonly ToolSpec[],
  strict?: StrictMode,
): Array<OpenAI.Responses.FunctionTool | OpenAI.Responses.CustomTool> {
  return tools.map((tool) =>
    tool.freeform
      ? { type: 'custom', name: tool.name, description: tool.description, format: { type: 'grammar', ...tool.freeform } }
      : functionTool(tool, strict),
  );
}

function functionTool(tool: ToolSpec, strict: StrictMode | undefined): OpenAI.Responses.FunctionTool {
  // Strict only when the provider was asked for it (the API's own default is strict).
  return { type: 'function', name: tool.name, description: tool.description, ...openaiParameters(tool.name, tool.inputSchema, strict) };
}

export function toResponsesParams(request: ModelRequest, strict?: StrictMode): OpenAI.Responses.ResponseCreateParamsStreaming {
  const effort = openAIEffort(request.reasoning);
  return {
    model: request.model,
    input: toResponsesInput(request.messages, new Set(request.tools.filter((tool) => tool.freeform).map((tool) => tool.name))),
    ...(request.system !== '' ? { instructions: request.system } : {}),
    ...(request.tools.length > 0 ? { tools: toResponsesTools(request.tools, strict) } : {}),
    ...(request.maxTokens !== undefined ? { max_output_tokens: request.maxTokens } : {}),
    ...(effort !== undefined ? { reasoning: { effort } } : {}),
    // The whole history is sent each turn, so nothing needs keeping server-side.
    store: false,
    ...(request.cache?.key !== undefined ? { prompt_cache_key: request.cache.key } : {}),
    stream: true,
  };
}
