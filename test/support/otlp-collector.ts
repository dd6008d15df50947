// A local OTLP/HTTP trace collector stand-in: accepts POST /v1/traces in protobuf or JSON, as an
// OpenTelemetry Collector does, and keeps the spans in one plain shape for assertions. Protobuf is
// read with the OTLP transformer's own wire reader, walking the fields of trace.proto.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProtobufReader } from '@opentelemetry/otlp-transformer/build/src/common/protobuf/protobuf-reader.js';

export type AttributeValue = string | number | boolean | AttributeValue[];

export interface CollectedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  attributes: Record<string, AttributeValue>;
  events: Array<{ name: string; attributes: Record<string, AttributeValue> }>;
  statusCode: number;
  resource: Record<string, AttributeValue>;
}

export interface Collector {
  url: string;
  spans: CollectedSpan[];
  /** Content types of the requests received, in order. */
  contentTypes: string[];
  close(): Promise<void>;
}

export async function startCollector(): Promise<Collector> {
  const spans: CollectedSpan[] = [];
  const contentTypes: string[] = [];
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const type = req.headers['content-type'] ?? '';
    contentTypes.push(type);
    if (req.method !== 'POST' || req.url !== '/v1/traces') {
      res.writeHead(404).end();
      return;
    }
    try {
      spans.push(...(type.includes('json') ? fromJSON(JSON.parse(body.toString('utf8'))) : fromProtobuf(new Uint8Array(body))));
      res
        .writeHead(200, { 'content-type': type.includes('json') ? 'application/json' : 'application/x-protobuf' })
        .end(type.includes('json') ? '{}' : '');
    } catch (error) {
      res.writeHead(400).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

// ---------------------------------------------------------------- OTLP/JSON

type JSONValue = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: JSONValue[] };
};
type JSONKeyValue = { key: string; value: JSONValue };

function jsonValue(value: JSONValue): AttributeValue {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  return (value.arrayValue?.values ?? []).map(jsonValue);
}

function jsonAttributes(list: JSONKeyValue[] | undefined): Record<string, AttributeValue> {
  return Object.fromEntries((list ?? []).map((entry) => [entry.key, jsonValue(entry.value)]));
}

interface JSONRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: JSONKeyValue[] };
    scopeSpans?: Array<{
      spans?: Array<{
        name: string;
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        attributes?: JSONKeyValue[];
        events?: Array<{ name: string; attributes?: JSONKeyValue[] }>;
        status?: { code?: number };
      }>;
    }>;
  }>;
}

function fromJSON(request: JSONRequest): CollectedSpan[] {
  return (request.resourceSpans ?? []).flatMap((resourceSpans) =>
    (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        name: span.name,
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? '',
        attributes: jsonAttributes(span.attributes),
        events: (span.events ?? []).map((event) => ({ name: event.name, attributes: jsonAttributes(event.attributes) })),
        statusCode: span.status?.code ?? 0,
        resource: jsonAttributes(resourceSpans.resource?.attributes),
      })),
    ),
  );
}

// ---------------------------------------------------------------- OTLP/protobuf

const LENGTH_DELIMITED = 2;
const FIXED64 = 1;

/** Calls onField for each field of a message; the callback reads the value or returns false to skip it. */
function fields(bytes: Uint8Array, onField: (field: number, wire: number, reader: ProtobufReader) => boolean): void {
  const reader = new ProtobufReader(bytes);
  while (!reader.isAtEnd()) {
    const { fieldNumber, wireType } = reader.readTag();
    if (!onField(fieldNumber, wireType, reader)) reader.skip(wireType);
  }
}

/** Reads every occurrence of one field (a repeated or embedded message), skipping the others. */
function each(bytes: Uint8Array, wanted: number, read: (reader: ProtobufReader) => void): void {
  fields(bytes, (field, _wire, reader) => {
    if (field !== wanted) return false;
    read(reader);
    return true;
  });
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

function anyValue(bytes: Uint8Array): AttributeValue {
  let value: AttributeValue = '';
  fields(bytes, (field, wire, reader) => {
    if (field === 1 && wire === LENGTH_DELIMITED) value = reader.readString();
    else if (field === 2) value = reader.readVarint() !== 0;
    else if (field === 3) value = reader.readVarint();
    else if (field === 4 && wire === FIXED64) {
      value = new DataView(bytes.buffer, bytes.byteOffset + reader.pos, 8).getFloat64(0, true);
      return false; // skip() moves past the 8 bytes
    } else if (field === 5) {
      const values: AttributeValue[] = [];
      each(reader.readBytes(), 1, (arrayReader) => values.push(anyValue(arrayReader.readBytes())));
      value = values;
    } else return false;
    return true;
  });
  return value;
}

function keyValue(bytes: Uint8Array, into: Record<string, AttributeValue>): void {
  let key = '';
  let value: AttributeValue = '';
  fields(bytes, (field, _wire, reader) => {
    if (field === 1) key = reader.readString();
    else if (field === 2) value = anyValue(reader.readBytes());
    else return false;
    return true;
  });
  into[key] = value;
}

function protobufSpan(bytes: Uint8Array, resource: Record<string, AttributeValue>): CollectedSpan {
  const span: CollectedSpan = { name: '', traceId: '', spanId: '', parentSpanId: '', attributes: {}, events: [], statusCode: 0, resource };
  fields(bytes, (field, _wire, reader) => {
    if (field === 1) span.traceId = hex(reader.readBytes());
    else if (field === 2) span.spanId = hex(reader.readBytes());
    else if (field === 4) span.parentSpanId = hex(reader.readBytes());
    else if (field === 5) span.name = reader.readString();
    else if (field === 9) keyValue(reader.readBytes(), span.attributes);
    else if (field === 11) {
      const event = { name: '', attributes: {} as Record<string, AttributeValue> };
      fields(reader.readBytes(), (inner, _w, eventReader) => {
        if (inner === 2) event.name = eventReader.readString();
        else if (inner === 3) keyValue(eventReader.readBytes(), event.attributes);
        else return false;
        return true;
      });
      span.events.push(event);
    } else if (field === 15) {
      each(reader.readBytes(), 3, (statusReader) => {
        span.statusCode = statusReader.readVarint();
      });
    } else return false;
    return true;
  });
  return span;
}

function fromProtobuf(bytes: Uint8Array): CollectedSpan[] {
  const spans: CollectedSpan[] = [];
  each(bytes, 1, (reader) => {
    const resource: Record<string, AttributeValue> = {};
    const scopes: Uint8Array[] = [];
    fields(reader.readBytes(), (inner, _w, resourceReader) => {
      if (inner === 1) each(resourceReader.readBytes(), 1, (attributeReader) => keyValue(attributeReader.readBytes(), resource));
      else if (inner === 2) scopes.push(resourceReader.readBytes());
      else return false;
      return true;
    });
    for (const scope of scopes) each(scope, 2, (scopeReader) => spans.push(protobufSpan(scopeReader.readBytes(), resource)));
  });
  return spans;
}
