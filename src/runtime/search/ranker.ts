// Query-time ranking over an IndexStore. A tool's score blends
//   - its BM25F score for the whole query and for its best-matching sentence,
//   - how much of its own name the query covers,
//   - its server's BM25 score (all of the server's tools as one document): "which provider fits
//     this request" is often the strongest signal when a request asks for several things,
// plus bonuses for exact names. Each query term's contributions are computed once and reused by
// the whole query and by each sentence.
import { FIELD_COUNT, bm25, bm25f, countBelow, idf, type RankingParams } from './scorer.js';
import { SERVER_FIELDS, type Entry, type IndexStore } from './store.js';
import { queryWeights } from './query-weights.js';
import { splitWords, terms } from './tokenize.js';

/**
 * In a large pool, a word found in more than this share of tools ("get", "api") is dropped from
 * a query that has other words: it barely changes the order (measured: same recall) but would
 * cost most of the query time, since it touches thousands of tools.
 */
const COMMON_SHARE = 0.25;
const COMMON_MIN_POOL = 1000;
/** Sentence ends and semicolons split a request into the things it asks for. */
const CLAUSE_BREAK = /[.?!;]+(?:\s+|$)|\n+/;
/** A token written like a code identifier: snake_case, kebab-case or an inner capital. */
const IDENTIFIER = /[a-z0-9][_-]?[A-Z]|[A-Za-z0-9]_[A-Za-z0-9]|[a-z]-[a-z]/;
/** Added to an exact-name match so it always ranks first. */
const EXACT_NAME_BONUS = 10;
/**
 * Requests ask for several things, and the first places otherwise fill with tools that all match
 * the same part ("validate email" four times, nothing for "QR code"). Among the best k (at least
 * NOVELTY_POOL), a tool gains up to NOVELTY_BONUS for the share (by idf) of its matched query
 * words that no tool above it matched. Measured on the dev queries: recall@5 up on the tuning
 * half, level on the check half; larger bonuses lost recall on the check half.
 */
const NOVELTY_POOL = 10;
const NOVELTY_BONUS = 0.06;

/** One term's contributions (weight 1) to tool and server scores. */
interface TermHits {
  ids: Int32Array;
  tool: Float64Array;
  servers: number[];
  server: Float64Array;
  idf: number;
}

class QueryScorer {
  private readonly cache = new Map<string, TermHits | null>();
  private readonly avg: number[];
  private readonly serverAvg: number;
  private readonly serverTf: Float64Array;

  constructor(
    private readonly store: IndexStore,
    private readonly params: RankingParams,
    private readonly dropCommon: boolean,
  ) {
    const n = store.size || 1;
    this.avg = store.fieldTotals.map((total) => total / n);
    this.serverAvg = store.serverLengthTotal / (store.serverIds.size || 1);
    this.serverTf = new Float64Array(store.servers.length);
  }

  hits(term: string): TermHits | null {
    let hits = this.cache.get(term);
    if (hits === undefined) {
      hits = this.compute(term);
      this.cache.set(term, hits);
    }
    return hits;
  }

  private compute(term: string): TermHits | null {
    const { store, params, serverTf } = this;
    const list = store.postingsOf(term);
    if (!list || (this.dropCommon && isCommon(store, list.ids.length))) return null;
    const n = store.size;
    const termIdf = idf(n, list.ids.length);
    const tool = new Float64Array(list.ids.length);
    const servers: number[] = [];
    for (let i = 0; i < list.ids.length; i++) {
      const id = list.ids[i];
      tool[i] = termIdf * bm25f(list.tfs[i], store.lengths, id * FIELD_COUNT, this.avg, params);
      const serverId = store.serverOf[id];
      const count = serverId >= 0 ? countBelow(list.tfs[i], SERVER_FIELDS) : 0;
      if (count === 0) continue;
      if (serverTf[serverId] === 0) servers.push(serverId);
      serverTf[serverId] += count;
    }
    const serverIdf = idf(store.serverIds.size, servers.length);
    const server = new Float64Array(servers.length);
    servers.forEach((serverId, i) => {
      const length = (store.servers[serverId] as { length: number }).length;
      server[i] = serverIdf * bm25(serverTf[serverId], length, this.serverAvg, params.k1, params.serverB);
      serverTf[serverId] = 0;
    });
    return { ids: list.ids, tool, servers, server, idf: termIdf };
  }

  /** Sums weighted contributions into the two score arrays; returns the tools it reached. */
  accumulate(weights: Map<string, number>, tools: Float64Array, servers: Float64Array): number[] {
    const touched: number[] = [];
    const seen = new Uint8Array(tools.length);
    for (const [term, weight] of weights) {
      const hits = this.hits(term);
      if (!hits) continue;
      for (let i = 0; i < hits.ids.length; i++) {
        const id = hits.ids[i];
        tools[id] += weight * hits.tool[i];
        if (seen[id] === 0) {
          seen[id] = 1;
          touched.push(id);
        }
      }
      for (let i = 0; i < hits.servers.length; i++) servers[hits.servers[i]] += weight * hits.server[i];
    }
    return touched;
  }

  /**
   * How much of a name the query covers, weighted by idf: "available region list" covers all of
   * `Available_Region_List`, one shared word covers little, and "get" or "list" hardly count.
   */
  coverage(nameTerms: readonly string[], weights: Map<string, number>): number {
    let total = 0;
    let covered = 0;
    for (const term of nameTerms) {
      const termIdf = this.hits(term)?.idf ?? 0;
      total += termIdf;
      covered += termIdf * Math.min(1, weights.get(term) ?? 0);
    }
    return total > 0 ? covered / total : 0;
  }
}

/**
 * Requests often ask for several things ("get X. Also, list Y"): each sentence is scored on its
 * own and a tool keeps its best sentence score (normalised per sentence), so the tool for a
 * short second request is not drowned by the words of the first. Undefined for one sentence.
 */
function isCommon(store: IndexStore, docFreq: number): boolean {
  return store.size >= COMMON_MIN_POOL && docFreq > store.size * COMMON_SHARE;
}

function clauseScores(scorer: QueryScorer, text: string, params: RankingParams, sizes: [number, number]) {
  const clauses = text.split(CLAUSE_BREAK).filter((clause) => terms(clause).length > 0);
  if (clauses.length < 2 || params.clauseWeight === 0) return undefined;
  const best = { tools: new Float64Array(sizes[0]), servers: new Float64Array(sizes[1]) };
  const tools = new Float64Array(sizes[0]);
  const servers = new Float64Array(sizes[1]);
  for (const clause of clauses) {
    tools.fill(0);
    servers.fill(0);
    const touched = scorer.accumulate(queryWeights(clause, params), tools, servers);
    let max = 0;
    for (const id of touched) max = Math.max(max, tools[id]);
    if (max > 0) for (const id of touched) best.tools[id] = Math.max(best.tools[id], tools[id] / max);
    normalise(servers);
    for (let id = 0; id < servers.length; id++) best.servers[id] = Math.max(best.servers[id], servers[id]);
  }
  return best;
}

/**
 * Tools whose name appears verbatim in the query as an identifier ("use the getInventory API",
 * "call search_issues"). Plain words ("points") are left to the ranking: many tools are named so.
 */
function mentionedNames(store: IndexStore, text: string): Set<number> {
  const ids = new Set<number>();
  for (const token of text.split(/[^\p{L}\p{N}_-]+/u)) {
    if (!IDENTIFIER.test(token)) continue;
    for (const id of store.byLowerName.get(token.toLowerCase())) ids.add(id);
  }
  return ids;
}

/** Ids of tools whose name holds every required word (as a substring or a word). */
function withNameWords(store: IndexStore, required: string[]): number[] {
  const stems = required.map((word) => terms(word)[0] ?? word);
  const ids: number[] = [];
  store.entries.forEach((entry, id) => {
    if (!entry) return;
    entry.nameWords ??= new Set([...splitWords(entry.doc.name), ...terms(entry.doc.name)]);
    const words = entry.nameWords;
    if (required.every((word, i) => entry.lowerName.includes(word) || words.has(stems[i]))) ids.push(id);
  });
  return ids;
}

/** The best k tools for a free-text query, best first; `required` words must be in the name. */
export function rankTools(
  store: IndexStore,
  text: string,
  required: string[],
  k: number,
  params: RankingParams,
): { id: number; score: number }[] {
  const weights = queryWeights(text, params);
  const dropCommon = [...weights.keys()].some((term) => {
    const docFreq = store.docFreq(term);
    return docFreq > 0 && !isCommon(store, docFreq);
  });
  const scorer = new QueryScorer(store, params, dropCommon);
  const sizes: [number, number] = [store.entries.length, store.servers.length];
  const toolScores = new Float64Array(sizes[0]);
  const serverScores = new Float64Array(sizes[1]);
  const touched = scorer.accumulate(weights, toolScores, serverScores);
  normalise(serverScores);
  const clauses = clauseScores(scorer, text, params, sizes);
  const mentioned = mentionedNames(store, text);
  const candidates = required.length > 0 ? withNameWords(store, required) : touched;
  const exactIds = new Set(store.byLowerName.get(text.trim().toLowerCase()));

  let maxTool = 0;
  for (const id of candidates) maxTool = Math.max(maxTool, toolScores[id]);
  const { serverBlend: blend, clauseWeight, mentionBonus, nameCoverage } = params;
  const top = new TopK(Math.max(k, NOVELTY_POOL));
  for (const id of candidates) {
    const entry = store.entries[id] as Entry;
    const whole = maxTool > 0 ? toolScores[id] / maxTool : 0;
    const wholeServer = entry.serverId >= 0 ? serverScores[entry.serverId] : 0;
    const tool = clauses ? (1 - clauseWeight) * whole + clauseWeight * clauses.tools[id] : whole;
    const server =
      clauses && entry.serverId >= 0 ? (1 - clauseWeight) * wholeServer + clauseWeight * clauses.servers[entry.serverId] : wholeServer;
    const bonus = (exactIds.has(id) ? EXACT_NAME_BONUS : 0) + (mentioned.has(id) ? mentionBonus : 0);
    const partial = (1 - blend) * (1 - nameCoverage) * tool + blend * server + bonus;
    // Name coverage adds at most (1 - blend) * nameCoverage: skip computing it when even that
    // cannot reach the current top k (most candidates, for long queries over many tools).
    if (!top.couldEnter(partial + (1 - blend) * nameCoverage)) continue;
    const score = partial + (1 - blend) * nameCoverage * scorer.coverage(entry.nameTerms, weights);
    if (score > 0 || required.length > 0) top.offer(id, score, entry.doc.name);
  }
  return favourNovelty(store, scorer, weights, top.items).slice(0, k);
}

/**
 * Re-orders the best tools greedily: each place goes to the highest score plus NOVELTY_BONUS
 * times the idf share of the tool's matched query words (name and description) not matched by
 * the tools already placed. Bonuses only shrink as words get covered, so scores stay descending.
 */
function favourNovelty(
  store: IndexStore,
  scorer: QueryScorer,
  weights: Map<string, number>,
  items: { id: number; score: number; name: string }[],
): { id: number; score: number }[] {
  const pool = items.map((item) => {
    const entry = store.entries[item.id] as Entry;
    const matched = new Set<string>();
    for (const term of [...entry.nameTerms, ...terms(entry.doc.description)]) if (weights.get(term) === 1) matched.add(term);
    return { ...item, matched: [...matched] };
  });
  const covered = new Set<string>();
  const ordered: { id: number; score: number }[] = [];
  while (pool.length > 0) {
    let best = 0;
    let bestScore = -Infinity;
    pool.forEach((item, at) => {
      let total = 0;
      let novel = 0;
      for (const term of item.matched) {
        const termIdf = scorer.hits(term)?.idf ?? 0;
        total += termIdf;
        if (!covered.has(term)) novel += termIdf;
      }
      const score = item.score + (total > 0 ? (NOVELTY_BONUS * novel) / total : 0);
      if (score > bestScore || (score === bestScore && item.name < pool[best].name)) {
        best = at;
        bestScore = score;
      }
    });
    const [chosen] = pool.splice(best, 1);
    for (const term of chosen.matched) covered.add(term);
    ordered.push({ id: chosen.id, score: bestScore });
  }
  return ordered;
}

/** The best k by score (ties by name), kept sorted; k is small, so insertion is cheapest. */
class TopK {
  readonly items: { id: number; score: number; name: string }[] = [];
  constructor(private readonly k: number) {}

  /** False when a score this high would surely be rejected. */
  couldEnter(upperBound: number): boolean {
    return this.items.length < this.k || upperBound >= this.items[this.items.length - 1].score;
  }

  offer(id: number, score: number, name: string): void {
    const items = this.items;
    if (items.length === this.k && !better(score, name, items[items.length - 1])) return;
    let at = items.length;
    while (at > 0 && better(score, name, items[at - 1])) at--;
    items.splice(at, 0, { id, score, name });
    if (items.length > this.k) items.pop();
  }
}

function better(score: number, name: string, than: { score: number; name: string }): boolean {
  return score > than.score || (score === than.score && name < than.name);
}

/** Scales scores in place so the best is 1 (all zeros stay zeros). */
function normalise(scores: Float64Array): void {
  let max = 0;
  for (const score of scores) max = Math.max(max, score);
  if (max > 0) for (let i = 0; i < scores.length; i++) scores[i] /= max;
}
