// A scripted stand-in model server on 127.0.0.1: each request gets the next script step.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { anthropicWriter } from './anthropic.js';
import { openaiChatWriter } from './openai-chat.js';
import { openaiResponsesWriter } from './openai-responses.js';
import type {
  DialectWriter,
  FaultStep,
  OpenAIQuirks,
  Reply,
  ReplyStep,
  ScriptStep,
  Standin,
  StandinDialect,
  StandinOptions,
} from './types.js';
import { AnthropicCacheSimulator, OpenAIPrefixCache, tokensOf } from '../cache-simulator.js';

const WRITERS: Record<StandinDialect, DialectWriter> = {
  anthropic: anthropicWriter,
  openai: openaiChatWriter,
  'openai-responses': openaiResponsesWriter,
};

function isFault(step: ScriptStep): step is FaultStep {
  return 'status' in step && typeof step.status === 'number';
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

function sendJSON(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Resolves when the client gives up on the response. */
function untilClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) resolve();
    else res.on('close', () => resolve());
  });
}

export async function startStandin(options: StandinOptions): Promise<Standin> {
  const writer = WRITERS[options.dialect];
  const quirks: OpenAIQuirks = options.dialectQuirks ?? {};
  const queue = [...options.script];
  const requests: unknown[] = [];
  const rawBodies: string[] = [];
  let refused = 0;
  const counting = options.countTokens === true || options.contextLimit !== undefined;
  const anthropicCache = new AnthropicCacheSimulator();
  const openaiCache = new OpenAIPrefixCache();

  /** What the provider would count and bill for this prompt. */
  function counted(raw: string, body: Record<string, unknown>): Pick<Reply, 'inputTokens' | 'cacheReadTokens' | 'cacheWriteTokens'> {
    if (options.dialect === 'anthropic') {
      const bill = anthropicCache.bill(body);
      return { inputTokens: bill.totalTokens, cacheReadTokens: bill.cacheReadTokens, cacheWriteTokens: bill.cacheWriteTokens };
    }
    return { inputTokens: tokensOf(raw), cacheReadTokens: openaiCache.cachedTokens(raw) };
  }
  const headers: Standin['headers'] = [];
  let serial = 0;
  let callSerial = 0;
  let aborts = 0;
  const idPrefix = options.dialect === 'anthropic' ? 'toolu_standin_' : 'call_standin_';

  function toReply(step: ReplyStep, count?: Pick<Reply, 'inputTokens' | 'cacheReadTokens' | 'cacheWriteTokens'>): Reply {
    serial++;
    return {
      ...count,
      text: step.text ?? '',
      thinking: step.thinking,
      toolCalls: (step.toolCalls ?? []).map((c) => ({
        id: c.id ?? `${idPrefix}${++callSerial}`,
        name: c.name,
        arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
        ...(c.custom ? { custom: true } : {}),
      })),
      inputTokens: step.usage?.inputTokens ?? count?.inputTokens ?? 10,
      outputTokens: step.usage?.outputTokens ?? 5,
      ...(step.usage?.cacheReadTokens !== undefined ? { cacheReadTokens: step.usage.cacheReadTokens } : {}),
      ...(step.usage?.cacheWriteTokens !== undefined ? { cacheWriteTokens: step.usage.cacheWriteTokens } : {}),
      stopReason: step.stopReason,
      model: options.model ?? 'standin-model',
      serial,
    };
  }

  async function stream(res: ServerResponse, reply: Reply, step: ReplyStep, body: Record<string, unknown>): Promise<void> {
    const frames = writer.frames(reply, body, quirks);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    for (const [i, frame] of frames.entries()) {
      if (step.cutAfterChunks !== undefined && i >= step.cutAfterChunks) {
        res.socket?.destroy();
        return;
      }
      if (step.breakAfter !== undefined && i >= step.breakAfter.chunks) {
        if (step.breakAfter.kind === 'stall') return untilClosed(res);
        if (step.breakAfter.kind === 'error_event') res.write(writer.errorFrame('Overloaded'));
        res.end();
        return;
      }
      if (res.destroyed) return;
      // Wait for each chunk to reach the socket, so a cut never swallows chunks already sent.
      await new Promise<void>((resolve) => res.write(frame, () => resolve()));
      if (step.chunkDelayMs !== undefined) await sleep(step.chunkDelayMs);
    }
    res.end();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.on('close', () => {
      if (!res.writableFinished) aborts++;
    });
    const raw = await readBody(req);
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'POST' || path !== writer.path) {
      return sendJSON(res, 404, writer.errorBody(404, `The stand-in serves POST ${writer.path}, not ${req.method} ${path}.`));
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return sendJSON(res, 400, writer.errorBody(400, 'The request body is not valid JSON.'));
    }
    requests.push(body);
    rawBodies.push(raw);
    headers.push({ ...req.headers });
    if (options.dialect === 'anthropic' && options.deferredTools === false) {
      const at = (body.tools as Record<string, unknown>[] | undefined)?.findIndex((tool) => 'defer_loading' in tool) ?? -1;
      if (at >= 0 || raw.includes('"tool_reference"')) {
        const field = at >= 0 ? `tools.${at}.custom.defer_loading` : 'messages: tool_reference';
        return sendJSON(res, 400, writer.errorBody(400, `${field}: Extra inputs are not permitted`));
      }
    }
    const count = counting ? counted(raw, body) : undefined;
    if (options.contextLimit !== undefined && count !== undefined && count.inputTokens > options.contextLimit) {
      refused++;
      return sendJSON(res, 400, writer.contextLimitBody(count.inputTokens, options.contextLimit));
    }
    const toolless = !Array.isArray(body.tools) || body.tools.length === 0;
    const step = toolless && options.replyWithoutTools !== undefined ? options.replyWithoutTools : queue.shift();
    if (step === undefined) {
      return sendJSON(res, 400, writer.errorBody(400, `The stand-in script has no reply left for request ${requests.length}.`));
    }
    if (step.delayMs !== undefined) await sleep(step.delayMs);
    if (!isFault(step) && step.silent === true) return untilClosed(res);
    if (isFault(step)) {
      return sendJSON(res, step.status, step.body ?? writer.errorBody(step.status, `Stand-in fault ${step.status}.`), step.headers);
    }
    const reply = toReply(step, count);
    if (body.stream === true) return stream(res, reply, step, body);
    return sendJSON(res, 200, writer.body(reply, quirks));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJSON(res, 500, writer.errorBody(500, `Stand-in failure: ${String(error)}`));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${writer.urlSuffix}`,
    requests,
    rawBodies,
    refusedForLength: () => refused,
    headers,
    clientAborts: () => aborts,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
