// Builds the RuntimeContext the pipeline needs from a registry and a session.
import type { RuntimeContext } from './types.js';
import type { ToolRegistry } from '../registry/registry.js';
import { withToolSpans } from '../telemetry/tool-spans.js';
import { tracingOn } from '../telemetry/tracer.js';

export type RuntimeOptions = Omit<RuntimeContext, 'resolveTool' | 'toolNames'> & { registry: ToolRegistry };

export function createRuntime(options: RuntimeOptions): RuntimeContext {
  const { registry, ...rest } = options;
  return {
    ...rest,
    resolveTool: (name) => registry.get(name),
    toolNames: () => registry.names(),
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
