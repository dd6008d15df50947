// Optional second stage: re-order the lexical top candidates by embedding similarity from an
// OpenAI-compatible `POST {baseURL}/embeddings` endpoint ({model, input: string[]} →
// {data: [{index, embedding}]}, per the OpenAI API reference). Off unless configured; any
// failure falls back to the lexical order, so search never breaks because the endpoint is down.
import type { ToolDoc } from './doc.js';

export interface Reranker {
  /** Returns the candidates re-ordered, best first, with their combined scores. */
  rerank(query: string, docs: ToolDoc[], lexicalScores: number[], signal?: AbortSignal): Promise<{ name: string; score: number }[]>;
}

export interface EmbeddingRerankerOptions {
  /** e.g. http://127.0.0.1:8080/v1 */
  baseURL: string;
  model: string;
  apiKey?: string;
  /** Share of the final score from embeddings (0..1); the rest is the normalised lexical score. */
  weight?: number;
  timeoutMs?: number;
  /** Injected for tests; defaults to global fetch. */
  fetch?: typeof fetch;
}

const DEFAULT_WEIGHT = 0.5;
const DEFAULT_TIMEOUT_MS = 5_000;
const MAX_DOC_CACHE = 20_000;

function docText(doc: ToolDoc): string {
  return [doc.name, doc.server, doc.searchHint, doc.description].filter(Boolean).join('\n');
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** Blends normalised lexical scores with similarities and sorts; pure. */
export function blendScores(names: string[], lexical: number[], similarity: number[], weight: number): { name: string; score: number }[] {
  const maxLexical = Math.max(...lexical, 0) || 1;
  return names
    .map((name, i) => ({ name, score: (1 - weight) * (lexical[i] / maxLexical) + weight * similarity[i] }))
    .sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : 1));
}

function parseEmbeddings(body: unknown, count: number): number[][] {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data) || data.length !== count) throw new Error(`expected ${count} embeddings`);
  const out = new Array<number[]>(count);
  data.forEach((item: unknown, position) => {
    const { index, embedding } = (item ?? {}) as { index?: unknown; embedding?: unknown };
    if (!Array.isArray(embedding) || !embedding.every((x) => typeof x === 'number')) throw new Error('embedding is not a number array');
    out[typeof index === 'number' ? index : position] = embedding as number[];
  });
  return out;
}

export function createEmbeddingReranker(options: EmbeddingRerankerOptions): Reranker {
  const weight = options.weight ?? DEFAULT_WEIGHT;
  const doFetch = options.fetch ?? fetch;
  const cache = new Map<string, number[]>();
  const url = `${options.baseURL.replace(/\/+$/, '')}/embeddings`;

  async function embed(inputs: string[], signal?: AbortSignal): Promise<number[][]> {
    const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const response = await doFetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      },
      body: JSON.stringify({ model: options.model, input: inputs }),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    if (!response.ok) throw new Error(`embeddings endpoint answered ${response.status}`);
    return parseEmbeddings(await response.json(), inputs.length);
  }

  return {
    async rerank(query, docs, lexicalScores, signal) {
      const names = docs.map((d) => d.name);
      try {
        const texts = docs.map(docText);
        const missing = [...new Set(texts.filter((t) => !cache.has(t)))];
        const vectors = await embed([query, ...missing], signal);
        if (cache.size + missing.length > MAX_DOC_CACHE) cache.clear();
        for (const [i, text] of missing.entries()) cache.set(text, vectors[i + 1]);
        const similarity = texts.map((t) => cosine(vectors[0], cache.get(t) ?? []));
        return blendScores(names, lexicalScores, similarity, weight);
      } catch {
        return names.map((name, i) => ({ name, score: lexicalScores[i] }));
      }
    },
  };
}
