// ToolSearch: ranking quality on the development queries, per fixed half and whole (plain BM25
// baselines in the same run), indexing and query speed at 10,000 tools, and bytes of the first
// model request with 50, 500 and 2,000 MCP tools connected.
// Data: test/data/toolsearch (see its SOURCE.md).
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { ToolIndex } from '../src/runtime/search/tool-index.js';
import { docFromJSON, type ToolDoc } from '../src/runtime/search/doc.js';
import { splitWords, isStopWord } from '../src/runtime/search/tokenize.js';
import { CORE_TOOL_NAMES, selectToolsForRequest } from '../src/runtime/search/defer.js';
import { toolSpec } from '../src/runtime/registry/spec.js';
import { builtinTools } from '../src/coding/tools/index.js';
import { createToolSearchTool } from '../src/runtime/search/tool.js';
import { defineTool } from '../src/runtime/tool/define.js';
import type { AnyTool } from '../src/runtime/tool/types.js';

const DATA = 'test/data/toolsearch';

interface Query {
  query: string;
  relevant: string[];
}

function readLines(file: string): unknown[] {
  return readFileSync(`${DATA}/${file}`, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

const rawTools = readLines('tools.jsonl') as Record<string, unknown>[];
const docs = rawTools.map(docFromJSON).filter((d): d is ToolDoc => typeof d !== 'string');
const queries = readLines('queries-dev.jsonl') as Query[];
// The baseline reads each tool's raw schema next to its parsed doc.
if (docs.length !== rawTools.length) throw new Error('every catalog line must parse, so lines and docs align');

/** The catalog copied (names and servers renamed) up to 10,000 tools. */
function bigPool(): ToolDoc[] {
  const pool: ToolDoc[] = [];
  for (let copy = 0; pool.length < 10_000; copy++) {
    for (const doc of docs) {
      if (pool.length >= 10_000) break;
      pool.push(copy === 0 ? doc : { ...doc, name: `${doc.name}_${copy}`, server: doc.server && `${doc.server}_${copy}` });
    }
  }
  return pool;
}

const COLD_MODE = 'WIELD_BENCH_COLD_INDEX';
if (process.env[COLD_MODE]) {
  const pool = bigPool();
  const start = performance.now();
  new ToolIndex().add(pool);
  process.stdout.write(String(performance.now() - start));
  process.exit(0);
}

// ------------------------------------------------------------------ quality

// Two fixed halves of the dev queries by a hash of the query text: ranking changes are tuned on
// half A only; half B is a check that a change generalises (the real test is a held-out split).
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}
const splits: Record<string, Query[]> = {
  A: queries.filter((q) => fnv1a(q.query) % 2 === 0),
  B: queries.filter((q) => fnv1a(q.query) % 2 === 1),
  all: queries,
};

type Ranker = (query: string, k: number) => string[];

function metrics(rank: Ranker, qs: Query[]): Record<string, number> {
  let r5 = 0;
  let r10 = 0;
  let hit5 = 0;
  let mrr = 0;
  for (const q of qs) {
    const top = rank(q.query, 10);
    const relevant = new Set(q.relevant);
    const found5 = top.slice(0, 5).filter((n) => relevant.has(n)).length;
    const found10 = top.filter((n) => relevant.has(n)).length;
    r5 += found5 / relevant.size;
    r10 += found10 / relevant.size;
    hit5 += found5 > 0 ? 1 : 0;
    const first = top.findIndex((n) => relevant.has(n));
    mrr += first >= 0 ? 1 / (first + 1) : 0;
  }
  const n = qs.length;
  const r = (x: number) => Math.round((x / n) * 1000) / 1000;
  return { queries: n, recall5: r(r5), recall10: r(r10), hit5: r(hit5), mrr: r(mrr) };
}

/** Metrics on half A, half B and the whole dev set. */
function bySplit(rank: Ranker, rewrite: (q: Query) => Query = (q) => q): Record<string, Record<string, number>> {
  return Object.fromEntries(Object.entries(splits).map(([name, qs]) => [name, metrics(rank, qs.map(rewrite))]));
}

/** Parameter names and descriptions of a JSON Schema's top-level properties (no example values). */
function paramNamesAndDescriptions(schema: unknown): string {
  const properties = (schema as { properties?: Record<string, { description?: unknown }> } | undefined)?.properties ?? {};
  return Object.entries(properties)
    .map(([key, value]) => (typeof value?.description === 'string' ? `${key} ${value.description}` : key))
    .join(' ');
}

// Lucene's default English stop set (StandardAnalyzer / EnglishAnalyzer).
const LUCENE_STOP_WORDS = new Set(
  'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with'.split(
    ' ',
  ),
);

/**
 * Plain BM25 (Okapi, k1 = 1.2, b = 0.75, "+1" idf) over one text per tool: full name, server,
 * description, parameter names and descriptions; lower-cased letter/digit runs, no stemming,
 * synonyms or field weights. `stopWords` only for the reference variant.
 */
function plainBM25(stopWords: ReadonlySet<string> = new Set()): Ranker {
  const k1 = 1.2;
  const b = 0.75;
  const words = (text: string) =>
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w !== '' && !stopWords.has(w));
  const tfs = rawTools.map((line, i) => {
    const d = docs[i];
    const tf = new Map<string, number>();
    for (const w of words(`${d.name} ${d.server ?? ''} ${d.description} ${paramNamesAndDescriptions(line.input_schema)}`))
      tf.set(w, (tf.get(w) ?? 0) + 1);
    return { name: d.name, tf, length: [...tf.values()].reduce((x, y) => x + y, 0) };
  });
  const df = new Map<string, number>();
  for (const d of tfs) for (const w of d.tf.keys()) df.set(w, (df.get(w) ?? 0) + 1);
  const avg = tfs.reduce((x, d) => x + d.length, 0) / tfs.length;
  const n = tfs.length;
  return (query, k) => {
    const q = [...new Set(words(query))];
    return tfs
      .map((d) => {
        let score = 0;
        for (const w of q) {
          const tf = d.tf.get(w);
          if (!tf) continue;
          const docFreq = df.get(w) ?? 0;
          const idf = Math.log(1 + (n - docFreq + 0.5) / (docFreq + 0.5));
          score += (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * d.length) / avg));
        }
        return { name: d.name, score };
      })
      .filter((r) => r.score > 0)
      .sort((x, y) => y.score - x.score || (x.name < y.name ? -1 : 1))
      .slice(0, k)
      .map((r) => r.name);
  };
}

const index = new ToolIndex();
index.add(docs);
const wield: Ranker = (query, k) => index.search(query, k).hits.map((h) => h.name);

// Keyword-style queries: the 4 words of each query that are rarest across the query set
// (fewest queries contain them), stop words and one-letter words left out, kept in order.
const queryDf = new Map<string, number>();
for (const q of queries) for (const w of new Set(splitWords(q.query))) queryDf.set(w, (queryDf.get(w) ?? 0) + 1);
function keywords(text: string): string {
  const words = [...new Set(splitWords(text))].filter((w) => w.length > 1 && !isStopWord(w));
  const rarest = [...words].sort((a, b) => (queryDf.get(a) ?? 0) - (queryDf.get(b) ?? 0)).slice(0, 4);
  return words.filter((w) => rarest.includes(w)).join(' ');
}
const toKeywords = (q: Query): Query => ({ ...q, query: keywords(q.query) });
const keywordQueries = queries.map(toKeywords);

// Diagnosis, not a ranker: wield's order with only the labelled servers' tools kept (from its top
// 200), i.e. recall if the provider were always chosen right.
const serverOf = new Map(docs.map((d) => [d.name, d.server]));
const relevantServers = new Map(queries.map((q) => [q.query, new Set(q.relevant.map((name) => serverOf.get(name)))]));
const wieldKnownServers: Ranker = (query, k) =>
  wield(query, 200)
    .filter((name) => relevantServers.get(query)?.has(serverOf.get(name)))
    .slice(0, k);

const bm25 = plainBM25();
const quality = {
  queries: queries.length,
  tools: docs.length,
  bm25: bySplit(bm25),
  // Reference only: the same BM25 with Lucene's stop words, the usual "plain BM25" setup.
  bm25LuceneStop: bySplit(plainBM25(LUCENE_STOP_WORDS)),
  wield: bySplit(wield),
  wieldKnownServers: bySplit(wieldKnownServers),
  keywords4: { bm25: bySplit(bm25, toKeywords), wield: bySplit(wield, toKeywords) },
};

// ------------------------------------------------------------------ speed at 10,000 tools

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const big = bigPool();
const indexTimes: number[] = [];
let bigIndex = new ToolIndex();
for (let run = 0; run < 5; run++) {
  globalThis.gc?.();
  const start = performance.now();
  bigIndex = new ToolIndex();
  bigIndex.add(big);
  indexTimes.push(performance.now() - start);
}
const queryTimes: number[] = [];
for (const q of [...queries, ...keywordQueries]) {
  const start = performance.now();
  bigIndex.search(q.query, 10);
  queryTimes.push(performance.now() - start);
}
/**
 * The first build in a fresh process, nothing compiled or cached yet (what a new session pays):
 * this bench run again in COLD_MODE, three times.
 */
function coldIndexTimes(): number[] {
  return [1, 2, 3].map(() => {
    const run = spawnSync(process.execPath, [process.argv[1]], { env: { ...process.env, [COLD_MODE]: '1' }, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`cold index run failed: ${run.stderr}`);
    return Number(run.stdout);
  });
}
const speed = {
  tools: big.length,
  indexMsMedian: Math.round(median(indexTimes) * 10) / 10,
  indexMsColdMedian: Math.round(median(coldIndexTimes()) * 10) / 10,
  queryMsMedian: Math.round(median(queryTimes) * 1000) / 1000,
  queryMsP95: Math.round([...queryTimes].sort((a, b) => a - b)[Math.floor(queryTimes.length * 0.95)] * 1000) / 1000,
};

// ------------------------------------------------------------------ first request size

// The real core built-ins plus ToolSearch: what every first request carries.
const core: AnyTool[] = [...builtinTools().filter((t) => CORE_TOOL_NAMES.includes(t.name)), createToolSearchTool(() => index)];

function mcpTools(count: number): AnyTool[] {
  return rawTools.slice(0, count).map((line) => {
    // MCP server names are identifiers; the catalog's provider names are titles ("Kick.com API").
    const server = String(line.server).replace(/[^A-Za-z0-9_-]+/g, '_');
    const name = String(line.name);
    const own = name.slice(name.indexOf('__') + 2);
    return defineTool({
      name: `mcp__${server}__${own}`.slice(0, 64),
      source: 'mcp',
      server,
      description: String(line.description ?? ''),
      inputJSONSchema: (line.input_schema as Record<string, unknown>) ?? { type: 'object' },
      call: async () => '',
    });
  });
}

const context: Record<
  string,
  { servers: number; toolSpecBytes: number; systemSectionBytes: number; totalBytes: number; allToolsBytes: number }
> = {};
for (const count of [50, 500, 2000]) {
  const mcp = mcpTools(count);
  const selection = selectToolsForRequest([...core, ...mcp], [], {});
  const specBytes = Buffer.byteLength(JSON.stringify(selection.tools.map((t) => toolSpec(t, process.cwd()))));
  const sectionBytes = Buffer.byteLength(selection.systemPromptSection);
  context[String(count)] = {
    servers: new Set(mcp.map((t) => t.server)).size,
    toolSpecBytes: specBytes,
    systemSectionBytes: sectionBytes,
    totalBytes: specBytes + sectionBytes,
    allToolsBytes: Buffer.byteLength(JSON.stringify([...core, ...mcp].map((t) => toolSpec(t, process.cwd())))),
  };
}

console.log(JSON.stringify({ quality, speed, context }, null, 2));
