// `--output-format stream-json` in Claude Code's headless shapes, so scripts written for
// `claude -p --output-format stream-json` read wield's output: a `system`/`init` line, one
// `assistant` line per reply, one `user` line per batch of tool results, and a final `result`
// line. A program's calls (RunCode) come as they happen, as an `assistant` line with the call and a
// `user` line with its result, each with `parent_tool_use_id` naming the RunCode call (as Claude
// Code marks a subagent's messages). Pure: events in, JSON objects out. wield's own events are
// `--output-format events`.
import type { AgentEvent, AgentResult } from '../runtime/agent/events.js';
import type { PermissionDecision } from '../runtime/pipeline/types.js';
import type { AssistantPart, UserPart } from '../runtime/providers/types.js';
import { textBlocks } from '../runtime/agent/history.js';
import { parentCallId } from './inner-calls.js';

export interface InitFacts {
  sessionId: string;
  cwd: string;
  model: string;
  tools: string[];
  mcpServers: { name: string; status: string }[];
  permissionMode: string;
}

/** Claude Code's `usage` object; cache figures are 0 until the provider reports them. */
export interface ClaudeUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export function initLine(facts: InitFacts): Record<string, unknown> {
  return {
    type: 'system',
    subtype: 'init',
    cwd: facts.cwd,
    session_id: facts.sessionId,
    tools: facts.tools,
    mcp_servers: facts.mcpServers,
    model: facts.model,
    permissionMode: facts.permissionMode,
    apiKeySource: 'none',
  };
}

function assistantContent(parts: readonly AssistantPart[]): unknown[] {
  return parts.map((part) => (part.type === 'tool_use' ? { type: 'tool_use', id: part.id, name: part.name, input: part.input } : part));
}

function userContent(parts: readonly UserPart[]): unknown[] {
  return parts.map((part) =>
    part.type === 'tool_result'
      ? { type: 'tool_result', tool_use_id: part.toolUseId, content: textBlocks(part.content), is_error: part.isError }
      : part,
  );
}

/** Claude Code's `subtype` of the result line for wield's stop reason. */
export function resultSubtype(stopReason: AgentResult['stopReason']): 'success' | 'error_max_turns' | 'error_during_execution' {
  if (stopReason === 'end_turn') return 'success';
  return stopReason === 'max_turns' ? 'error_max_turns' : 'error_during_execution';
}

/** Turns agent events into Claude Code stream-json lines; keeps what the result line needs. */
export class ClaudeStreamJson {
  private replies = 0;
  private readonly denials: { tool_name: string; tool_use_id: string; reason: string }[] = [];
  /** Calls running now, each with the program that made it (null for the model's own). */
  private readonly running = new Map<string, string | null>();

  constructor(
    private readonly sessionId: string,
    private readonly model: string,
  ) {}

  /** The lines for one event (most events have none). */
  lines(event: AgentEvent): Record<string, unknown>[] {
    const common = { parent_tool_use_id: null, session_id: this.sessionId };
    switch (event.type) {
      case 'assistant_message':
        this.replies++;
        return [
          {
            type: 'assistant',
            message: {
              id: `msg_${this.sessionId}_${this.replies}`,
              type: 'message',
              role: 'assistant',
              model: this.model,
              content: assistantContent(event.message.content),
              stop_reason: null,
            },
            ...common,
          },
        ];
      case 'tool_results':
        return [{ type: 'user', message: { role: 'user', content: userContent(event.message.content) }, ...common }];
      case 'permission_decided':
        if (event.decision.behavior === 'deny') this.denials.push(denial(event.toolName, event.toolUseId, event.decision));
        return [];
      case 'tool_start': {
        const parent = parentCallId(event.toolUseId, (id) => this.running.has(id)) ?? null;
        this.running.set(event.toolUseId, parent);
        if (parent === null) return [];
        const content = [{ type: 'tool_use', id: event.toolUseId, name: event.toolName, input: event.input }];
        return [
          {
            type: 'assistant',
            message: { id: `msg_${event.toolUseId}`, type: 'message', role: 'assistant', model: this.model, content, stop_reason: null },
            ...common,
            parent_tool_use_id: parent,
          },
        ];
      }
      case 'tool_end': {
        const parent = this.running.get(event.toolUseId) ?? null;
        this.running.delete(event.toolUseId);
        if (parent === null) return [];
        const content = [
          { type: 'tool_result', tool_use_id: event.toolUseId, content: textBlocks(event.result.content), is_error: event.result.isError },
        ];
        return [{ type: 'user', message: { role: 'user', content }, ...common, parent_tool_use_id: parent }];
      }
      default:
        return [];
    }
  }

  result(result: AgentResult, extra: { durationMs: number; costUsd?: number; usage?: ClaudeUsage }): Record<string, unknown> {
    const usage = extra.usage ?? {
      input_tokens: result.usage.inputTokens,
      output_tokens: result.usage.outputTokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    };
    return {
      type: 'result',
      subtype: resultSubtype(result.stopReason),
      is_error: result.stopReason !== 'end_turn',
      duration_ms: Math.round(extra.durationMs),
      num_turns: result.turns,
      result: result.answer,
      session_id: this.sessionId,
      total_cost_usd: extra.costUsd ?? 0,
      usage,
      permission_denials: this.denials,
      // wield's own figures, which Claude Code's shape has no field for.
      stop_reason: result.stopReason,
      ...(result.error !== undefined ? { error: result.error } : {}),
    };
  }
}

function denial(toolName: string, toolUseId: string, decision: PermissionDecision) {
  return { tool_name: toolName, tool_use_id: toolUseId, reason: decision.reason };
}
