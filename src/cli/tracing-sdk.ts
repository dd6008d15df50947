// The OpenTelemetry SDK side of trace export, in its own module so that only a run with export on
// loads it (tracing.ts imports this file dynamically). The imports are static on purpose: the SDK
// packages are CommonJS and bundled, and a static import is what gives them their named exports
// in the bundle (a dynamic import of a bundled CommonJS package puts them under `default`).
import { OTLPTraceExporter as HttpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

/** Registers the global tracer provider; the returned function flushes and stops it. */
export function registerTraceExport(protocol: 'http/protobuf' | 'http/json', serviceName: string, version: string): () => Promise<void> {
  const exporter = protocol === 'http/json' ? new HttpJsonExporter() : new ProtobufExporter();
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName, 'service.version': version }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  provider.register();
  return () => provider.shutdown(); // flushes what is still batched
}
