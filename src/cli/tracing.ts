// Trace export for the CLI, from OpenTelemetry's standard environment: nothing is loaded unless
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT is set, so start-up does not
// pay for the SDK. Then the Node SDK registers a global tracer provider that the runtime's spans
// (which use only @opentelemetry/api) go to, batched, over OTLP/HTTP in protobuf (the default)
// or JSON (OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL=http/json). The exporter reads the endpoint,
// headers and timeout variables itself; OTEL_SERVICE_NAME names the service (default "wield").

import { messageOf } from '../runtime/util/message.js';
export type Env = Readonly<Record<string, string | undefined>>;

export interface TraceExportPlan {
  protocol: 'http/protobuf' | 'http/json';
  serviceName: string;
}

/** Pure: whether and how to export, or why not (a protocol wield cannot speak). */
export function traceExportPlan(env: Env): TraceExportPlan | { skip: string } | undefined {
  if (!env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT && !env.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  if (env.OTEL_SDK_DISABLED?.toLowerCase() === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return undefined;
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf';
  if (protocol !== 'http/protobuf' && protocol !== 'http/json') {
    return { skip: `OTEL_EXPORTER_OTLP_PROTOCOL "${protocol}" is not supported; set http/protobuf or http/json. Traces are not exported.` };
  }
  return { protocol, serviceName: env.OTEL_SERVICE_NAME || 'wield' };
}

let stop: (() => Promise<void>) | undefined;

/** Starts export when the environment asks for it (stopTraceExport flushes it before the CLI exits). */
export async function startTraceExport(env: Env, version: string): Promise<void> {
  const plan = traceExportPlan(env);
  if (plan === undefined) return;
  if ('skip' in plan) {
    process.stderr.write(`wield: ${plan.skip}\n`);
    return;
  }
  const { registerTraceExport } = await import('./tracing-sdk.js');
  stop = registerTraceExport(plan.protocol, plan.serviceName, version);
}

/** Sends the spans still batched and stops export; a collector that cannot be reached is named, never fatal. */
export async function stopTraceExport(): Promise<void> {
  const stopping = stop;
  stop = undefined;
  try {
    await stopping?.();
  } catch (error) {
    process.stderr.write(`wield: traces could not be exported (${messageOf(error)})\n`);
  }
}
