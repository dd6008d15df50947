// A bare Streamable HTTP client for the gateway tests: plain fetch, so a test controls exactly
// which streams exist (no standalone GET stream unless asked) and what headers are sent.
export interface SseMessage {
  id?: string;
  data: Record<string, unknown>;
}

export class RawMcpClient {
  sessionId?: string;
  private nextId = 1;

  constructor(
    readonly url: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  async initialize(capabilities: Record<string, unknown> = {}): Promise<Response> {
    const response = await this.post({
      jsonrpc: '2.0',
      id: this.nextId++,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'raw', version: '1' } },
    });
    this.sessionId = response.headers.get('mcp-session-id') ?? undefined;
    await response.text();
    if (this.sessionId) await (await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' })).text();
    return response;
  }

  /** POSTs one message; the caller reads the response (JSON or an SSE stream). */
  post(message: unknown, extraHeaders: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> {
    return fetch(this.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        ...(this.sessionId ? { 'mcp-session-id': this.sessionId } : {}),
        ...this.headers,
        ...extraHeaders,
      },
      body: typeof message === 'string' ? message : JSON.stringify(message),
      signal,
    });
  }

  request(method: string, params: Record<string, unknown>, signal?: AbortSignal): { id: number; response: Promise<Response> } {
    const id = this.nextId++;
    return { id, response: this.post({ jsonrpc: '2.0', id, method, params }, {}, signal) };
  }
}

/** Reads SSE messages from a response body, one at a time. */
export async function* sseMessages(response: Response): AsyncGenerator<SseMessage> {
  const reader = (response.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .join('\n');
      const id = /^id:\s*(.*)$/m.exec(event)?.[1];
      if (data) yield { id, data: JSON.parse(data) as Record<string, unknown> };
      end = buffer.indexOf('\n\n');
    }
  }
}
