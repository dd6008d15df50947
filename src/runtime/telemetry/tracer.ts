// The tracer wield's spans come from, and whether tool inputs, outputs and prompts are recorded.
import { ProxyTracerProvider, type TracerProvider, type Tracer, trace } from '@opentelemetry/api';

const TRACER_NAME = 'wield';
/** The variable OpenTelemetry's GenAI instrumentations read for the same opt-in. */
export const CAPTURE_CONTENT_ENV = 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT';

let recordContent: boolean | undefined;

// What the API's global provider delegates to until an SDK registers one: its no-op provider.
const NO_SDK = new ProxyTracerProvider().getDelegate();

function delegateOf(provider: TracerProvider): TracerProvider {
  return provider instanceof ProxyTracerProvider ? provider.getDelegate() : provider;
}

/**
 * True once an OpenTelemetry SDK has registered a tracer provider. Without one the call path
 * skips its tracing tap altogether: events and no-op spans would cost a plain call ~2.5× (core
 * bench, runToolCall 7.9 → 20 µs on a loaded machine).
 */
export function tracingOn(): boolean {
  return delegateOf(trace.getTracerProvider()) !== NO_SDK;
}

/** The global tracer provider's tracer (a no-op until an SDK registers one). */
export function tracer(): Tracer {
  return trace.getTracer(TRACER_NAME);
}

/**
 * Tool inputs and outputs can hold secrets, so spans carry them only when asked: set
 * OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true, or call recordToolContent(true).
 */
export function recordToolContent(on: boolean): void {
  recordContent = on;
}

export function recordsContent(): boolean {
  recordContent ??= process.env[CAPTURE_CONTENT_ENV]?.toLowerCase() === 'true';
  return recordContent;
}
