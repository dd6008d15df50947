// Pure helpers that keep the history valid: every tool_use gets exactly one tool_result.
import type { ContentBlock, ToolCallResult } from '../tool/types.js';
import type { AssistantPart, Message, UserPart } from '../providers/types.js';
import { interruptedWhileRunning, syntheticResult, type ErrorContent } from '../results/errors.js';
import type { UserMessage } from './events.js';

type ToolUsePart = Extract<AssistantPart, { type: 'tool_use' }>;
type ToolResultPart = Extract<UserPart, { type: 'tool_result' }>;

/**
 * One result per call, in call order: a call the scheduler returned nothing for gets `missing`,
 * and stray or duplicate results are dropped (a provider may never see an unpaired id).
 */
export function pairResults(
  calls: readonly { id: string; name: string }[],
  results: readonly ToolCallResult[],
  missing: ErrorContent,
): ToolCallResult[] {
  const byId = new Map<string, ToolCallResult>();
  for (const result of results) if (!byId.has(result.toolUseId)) byId.set(result.toolUseId, result);
  return calls.map((call) => byId.get(call.id) ?? syntheticResult(call, missing));
}

export function toolResultPart(r: ToolCallResult): ToolResultPart {
  const part: ToolResultPart = {
    type: 'tool_result',
    toolUseId: r.toolUseId,
    toolName: r.toolName,
    content: r.content,
    isError: r.isError,
  };
  if (r.errorKind) part.errorKind = r.errorKind;
  return part;
}

export function toolResultsMessage(results: readonly ToolCallResult[]): UserMessage {
  return { role: 'user', content: results.map(toolResultPart) };
}

/** Ids must be unique across the history; models (and some local servers) repeat or omit them. */
export function uniqueCallId(id: string, seen: Set<string>): string {
  let candidate = id.trim() === '' ? `call_${seen.size + 1}` : id;
  for (let n = 2; seen.has(candidate); n++) candidate = `${id || 'call'}_${n}`;
  seen.add(candidate);
  return candidate;
}

export function toolUses(message: Message): ToolUsePart[] {
  return message.role === 'assistant' ? message.content.filter((part): part is ToolUsePart => part.type === 'tool_use') : [];
}

/**
 * Repairs a history (e.g. a resumed session whose process died mid-turn): after each assistant
 * message with tool_use parts, the next message carries exactly one tool_result per call, and
 * consecutive user messages are joined.
 */
export function repairHistory(messages: readonly Message[]): Message[] {
  const out: Message[] = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    if (message.role === 'user') {
      // Reached only when no tool_use precedes it: its tool_results would be orphans.
      const content = message.content.filter((part) => part.type !== 'tool_result');
      const previous = out[out.length - 1];
      // A prompt after an interrupted turn joins the tool results (roles must alternate).
      if (previous?.role === 'user') out[out.length - 1] = { role: 'user', content: [...previous.content, ...content] };
      else if (content.length > 0) out.push({ role: 'user', content });
      continue;
    }
    out.push(message);
    const uses = toolUses(message);
    if (uses.length === 0) continue;
    const next = messages[i + 1];
    const given = next?.role === 'user' ? next.content.filter((p): p is ToolResultPart => p.type === 'tool_result') : [];
    const paired = uses.map(
      (use) => given.find((part) => part.toolUseId === use.id) ?? toolResultPart(syntheticResult(use, interruptedWhileRunning())),
    );
    const rest = next?.role === 'user' ? next.content.filter((p) => p.type !== 'tool_result') : [];
    out.push({ role: 'user', content: [...paired, ...rest] });
    if (next?.role === 'user') i++;
  }
  return out;
}

/** The text of an assistant message's text parts. */
export function textOf(message: Message | undefined): string {
  if (message?.role !== 'assistant') return '';
  return message.content
    .filter((part): part is { type: 'text'; text: string } => part.type === 'text')
    .map((part) => part.text)
    .join('');
}

export function textBlocks(blocks: readonly ContentBlock[]): string {
  return blocks.map((block) => (block.type === 'text' ? block.text : `[image ${block.mediaType}]`)).join('\n');
}
