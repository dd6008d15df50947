import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { blendScores, cosine, createEmbeddingReranker } from '../../../src/runtime/search/rerank.js';
import { ToolIndex } from '../../../src/runtime/search/tool-index.js';
import { POOL } from './fixtures.js';

// Deterministic stand-in for an embeddings endpoint: a text's vector says whether it mentions
// "calendar"/"event" (dimension 0) or anything else (dimension 1).
function vector(text: string): number[] {
  return /calendar|event|meeting/i.test(text) ? [1, 0] : [0, 1];
}

let server: http.Server;
let baseURL = '';
const requests: { auth?: string; body: { model: string; input: string[] } }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.url !== '/v1/embeddings') return res.writeHead(404).end();
      const parsed = JSON.parse(body) as { model: string; input: string[] };
      requests.push({ auth: req.headers.authorization, body: parsed });
      if (parsed.model === 'broken') return res.writeHead(500).end('{}');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ object: 'list', data: parsed.input.map((t, index) => ({ object: 'embedding', index, embedding: vector(t) })) }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('embedding re-ranker', () => {
  it('is off by default: searchReranked equals the lexical search', async () => {
    const index = new ToolIndex();
    index.add(POOL);
    expect(await index.searchReranked('create something new', 5)).toEqual(index.search('create something new', 5));
  });

  it('re-orders the lexical candidates by similarity and caches document vectors', async () => {
    const index = new ToolIndex({ reranker: createEmbeddingReranker({ baseURL, model: 'm', apiKey: 'k', weight: 0.9 }) });
    index.add(POOL);
    const lexical = index.search('create a new meeting', 5).hits.map((h) => h.name);
    const reranked = (await index.searchReranked('create a new meeting', 5)).hits.map((h) => h.name);
    expect(reranked[0]).toBe('mcp__calendar__create_event');
    expect(new Set(reranked)).toEqual(new Set(lexical));
    expect(requests.at(-1)?.auth).toBe('Bearer k');
    const sent = requests.length;
    await index.searchReranked('create a new meeting', 5);
    // Second time only the query is embedded.
    expect(requests.length).toBe(sent + 1);
    expect(requests.at(-1)?.body.input).toEqual(['create a new meeting']);
  });

  it('falls back to the lexical order when the endpoint fails', async () => {
    const index = new ToolIndex({ reranker: createEmbeddingReranker({ baseURL, model: 'broken' }) });
    index.add(POOL);
    const lexical = index.search('github issue', 5).hits.map((h) => h.name);
    expect((await index.searchReranked('github issue', 5)).hits.map((h) => h.name)).toEqual(lexical);
  });

  it('blends and sorts scores purely', () => {
    expect(cosine([1, 0], [1, 0])).toBe(1);
    expect(cosine([0, 0], [1, 0])).toBe(0);
    expect(blendScores(['a', 'b'], [2, 1], [0, 1], 0.75).map((r) => r.name)).toEqual(['b', 'a']);
  });
});
