// Spans of the agent loop: `invoke_agent wield` around a run, one span per turn (`turn {n}`),
// and one per model request, `chat {model}` with the token usage (cache tokens included), as the
// GenAI semantic conventions name them. Tool calls (tool-spans.ts) nest under their turn.
import { type Span, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ProviderName, StopReason, Usage } from '../providers/types.js';
import { GEN_AI } from './tool-spans.js';
import { tracer } from './tracer.js';
import { messageOf } from '../util/message.js';

/** The provider names the conventions use (`gen_ai.provider.name`). */
const PROVIDER: Record<ProviderName, string> = { anthropic: 'anthropic', openai: 'openai', 'openai-responses': 'openai' };

/** Runs fn inside an active span (so the spans started within nest under it) and ends it. */
export function inSpan<T>(name: string, attributes: Record<string, string | number>, fn: (span: Span) => Promise<T>): Promise<T> {
  return tracer().startActiveSpan(name, { kind: SpanKind.INTERNAL, attributes }, async (span) => {
    try {
      return await fn(span);
    } finally {
      span.end();
    }
  });
}

export function agentSpanAttributes(model: string, provider: ProviderName): Record<string, string> {
  return {
    [GEN_AI.operation]: 'invoke_agent',
    'gen_ai.agent.name': 'wield',
    'gen_ai.request.model': model,
    'gen_ai.provider.name': PROVIDER[provider],
  };
}

export interface ChatSpan {
  end(stopReason: StopReason, usage: Usage | undefined): void;
  fail(error: unknown): void;
}

export function startChatSpan(model: string, provider: ProviderName, maxTokens: number | undefined): ChatSpan {
  const span = tracer().startSpan(`chat ${model}`, {
    kind: SpanKind.CLIENT,
    attributes: {
      [GEN_AI.operation]: 'chat',
      'gen_ai.provider.name': PROVIDER[provider],
      'gen_ai.request.model': model,
      ...(maxTokens !== undefined ? { 'gen_ai.request.max_tokens': maxTokens } : {}),
    },
  });
  return {
    end(stopReason, usage) {
      span.setAttribute('gen_ai.response.finish_reasons', [stopReason]);
      if (usage) span.setAttributes(usageAttributes(usage));
      span.end();
    },
    fail(error) {
      span.setAttribute(GEN_AI.errorType, error instanceof Error ? error.name : 'error');
      span.setStatus({ code: SpanStatusCode.ERROR, message: messageOf(error) });
      span.end();
    },
  };
}

function usageAttributes(usage: Usage): Record<string, number> {
  const attributes: Record<string, number> = {
    'gen_ai.usage.input_tokens': usage.inputTokens,
    'gen_ai.usage.output_tokens': usage.outputTokens,
  };
  // Cache tokens, where the provider reports them (Usage.cacheReadTokens / cacheWriteTokens).
  const { cacheReadTokens, cacheWriteTokens } = usage as Usage & { cacheReadTokens?: number; cacheWriteTokens?: number };
  if (cacheReadTokens !== undefined) attributes['gen_ai.usage.cache_read.input_tokens'] = cacheReadTokens;
  if (cacheWriteTokens !== undefined) attributes['gen_ai.usage.cache_creation.input_tokens'] = cacheWriteTokens;
  return attributes;
}
