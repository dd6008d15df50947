// One OpenTelemetry span per tool call, `execute_tool {name}` as the GenAI semantic conventions
// name it, built from the pipeline's own events (ToolEvent): the permission decision, hook
// outcomes and budget cuts become attributes and span events, the result's error kind becomes
// `error.type`. Only @opentelemetry/api is used: without an SDK every span is a no-op that
// records nothing, so nothing is kept per call either.
import { type Attributes, type Span, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { RuntimeContext, ToolEvent } from '../pipeline/types.js';
import type { ToolCallResult } from '../tool/types.js';
import { recordsContent, tracer } from './tracer.js';

// The GenAI attribute names are still "incubating" in the conventions; OpenTelemetry asks
// instrumentations to copy them rather than import the incubating entry point.
export const GEN_AI = {
  operation: 'gen_ai.operation.name',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolArguments: 'gen_ai.tool.call.arguments',
  toolResult: 'gen_ai.tool.call.result',
  errorType: 'error.type',
} as const;

/**
 * The runtime with a tracing tap on its events: each call's span starts at `tool_start` (or at
 * `tool_end` for a call that never found its tool) and ends at `tool_end`. The span's parent is
 * the context active when the call started: the agent turn, or the framework's own span.
 */
export function withToolSpans(rt: RuntimeContext): RuntimeContext {
  const spans = new Map<string, Span>();
  const emit = rt.emit;
  return {
    ...rt,
    emit: (event) => {
      recordEvent(event, spans, rt);
      emit?.(event);
    },
  };
}

function startSpan(toolName: string, toolUseId: string, rt: RuntimeContext, input: unknown, startTime?: number): Span {
  const tool = rt.resolveTool(toolName);
  const attributes: Attributes = {
    [GEN_AI.operation]: 'execute_tool',
    [GEN_AI.toolName]: toolName,
    [GEN_AI.toolCallId]: toolUseId,
    [GEN_AI.toolType]: 'function',
  };
  if (tool) attributes['wield.tool.source'] = tool.source;
  if (tool?.server) attributes['wield.tool.server'] = tool.server;
  if (recordsContent() && input !== undefined) attributes[GEN_AI.toolArguments] = typeof input === 'string' ? input : JSON.stringify(input);
  return tracer().startSpan(`execute_tool ${toolName}`, { kind: SpanKind.INTERNAL, attributes, startTime });
}

function recordEvent(event: ToolEvent, spans: Map<string, Span>, rt: RuntimeContext): void {
  if (event.type === 'tool_start') {
    const span = startSpan(event.toolName, event.toolUseId, rt, event.input);
    if (span.isRecording()) spans.set(event.toolUseId, span);
    return;
  }
  const span = spans.get(event.toolUseId);
  switch (event.type) {
    case 'permission_asked':
      span?.addEvent('wield.permission.asked', { 'wield.permission.reason': event.decision.reason });
      return;
    case 'permission_decided':
      span?.setAttributes({
        'wield.permission.decision': event.decision.behavior,
        'wield.permission.by': event.by,
        ...(event.decision.rule ? { 'wield.permission.rule': event.decision.rule } : {}),
      });
      span?.addEvent('wield.permission', {
        'wield.permission.decision': event.decision.behavior,
        'wield.permission.reason': event.decision.reason,
      });
      return;
    case 'hook_outcome':
      span?.addEvent('wield.hook', {
        'wield.hook.event': event.event,
        'wield.hook.outcome': event.outcome,
        ...(event.reason ? { 'wield.hook.reason': event.reason } : {}),
        ...(event.errors.length ? { 'wield.hook.errors': event.errors } : {}),
      });
      return;
    case 'result_budgeted':
      span?.setAttribute('wield.result.spill_file', event.file);
      span?.addEvent('wield.result.budget', {
        'wield.result.total_chars': event.totalChars,
        'wield.result.kept_chars': event.keptChars,
        'wield.result.spill_file': event.file,
      });
      return;
    case 'tool_end': {
      spans.delete(event.toolUseId);
      const ended =
        span ??
        startSpan(event.toolName, event.toolUseId, rt, undefined, performance.timeOrigin + performance.now() - event.result.durationMs);
      endSpan(ended, event.result);
      return;
    }
    default:
      return;
  }
}

function endSpan(span: Span, result: ToolCallResult): void {
  if (result.isError) {
    span.setAttribute(GEN_AI.errorType, errorTypeOf(result));
    span.setStatus({ code: SpanStatusCode.ERROR, message: firstText(result).slice(0, 500) });
  }
  if (recordsContent()) span.setAttribute(GEN_AI.toolResult, firstText(result));
  span.end();
}

/** The result's error kind (ToolCallResult.errorKind, once results carry one), else a generic one. */
function errorTypeOf(result: ToolCallResult): string {
  const kind = (result as { errorKind?: unknown }).errorKind;
  return typeof kind === 'string' ? kind : 'tool_error';
}

function firstText(result: ToolCallResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
}
