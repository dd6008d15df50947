// The tracer wield's spans come from, and whether tool inputs, outputs and prompts are recorded.
import { type Tracer, trace } from '@opentelemetry/api';

const TRACER_NAME = 'wield';
/** The variable OpenTelemetry's GenAI instrumentations read for the same opt-in. */
export const CAPTURE_CONTENT_ENV = 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT';

let recordContent: boolean | undefined;

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
