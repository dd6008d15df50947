// Builds the RuntimeContext the pipeline needs from a registry and a session.
import type { AnyTool } from '../tool/types.js';
import type { RuntimeContext } from './types.js';
import type { ToolRegistry } from '../registry/registry.js';
import { withToolSpans } from '../telemetry/tool-spans.js';
import { tracingOn } from '../telemetry/tracer.js';

export type RuntimeOptions = Omit<RuntimeContext, 'resolveTool' | 'toolNames'> & { registry: ToolRegistry };

/** A runtime an agent loop can drive: the call path's context and the tools to offer the model. */
export interface AgentRuntime extends RuntimeContext {
  /** The tools to offer, in stable order (the registry's pool). */
  pool(): AnyTool[];
}

export function createRuntime(options: RuntimeOptions): AgentRuntime {
  const { registry, ...rest } = options;
  return {
    ...rest,
    resolveTool: (name) => registry.get(name),
    toolNames: () => registry.names(),
    pool: () => registry.pool(),
  };
}

/** The runtime as the call path uses it: each call traced when an OpenTelemetry SDK is on (telemetry/tool-spans.ts), events best-effort. */
export function forCallPath(rt: RuntimeContext): RuntimeContext {
  return withSafeEmit(tracingOn() ? withToolSpans(rt) : rt);
}

/** A UI callback that throws must never break the call path: events are best-effort. */
export function withSafeEmit(rt: RuntimeContext): RuntimeContext {
  const emit = rt.emit;
  if (!emit) return rt;
  return {
    ...rt,
    emit: (event) => {
      try {
        emit(event);
      } catch {
        // ignored on purpose: see above
      }
    },
  };
}
