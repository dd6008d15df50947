// The ToolSearch index: tools in, ranked names out. Incremental (add/remove/sync), so an MCP
// server's list_changed updates only the tools that changed.
import type { AnyTool } from '../tool/types.js';
import { closestNames } from '../pipeline/lookup.js';
import { docFromTool, oneLine, type ToolDoc } from './doc.js';
import { parseQuery } from './query.js';
import { rankTools } from './ranker.js';
import { DEFAULT_RANKING, type RankingParams } from './scorer.js';
import { IndexStore, type Entry } from './store.js';
import type { Reranker } from './rerank.js';

export interface SearchHit {
  name: string;
  server?: string;
  /** One line, for the model and for people. */
  description: string;
  score: number;
}

export interface SearchResult {
  hits: SearchHit[];
  /** select: names that matched no tool, with close names. */
  unknown: { name: string; suggestions: string[] }[];
}

export interface ToolIndexOptions {
  ranking?: Partial<RankingParams>;
  /** Optional second-stage re-ranker (embeddings); off unless given. */
  reranker?: Reranker;
}

/** Re-ranking looks at this many lexical candidates at most. */
const RERANK_POOL = 40;

export class ToolIndex {
  private readonly ranking: RankingParams;
  private readonly reranker?: Reranker;
  private readonly store = new IndexStore();

  constructor(options: ToolIndexOptions = {}) {
    this.ranking = { ...DEFAULT_RANKING, ...options.ranking };
    this.reranker = options.reranker;
  }

  get size(): number {
    return this.store.size;
  }

  has(name: string): boolean {
    return this.store.ids.has(name);
  }

  get(name: string): ToolDoc | undefined {
    return this.store.entryOf(name)?.doc;
  }

  names(): string[] {
    return [...this.store.ids.keys()];
  }

  /** Adds tools, replacing any indexed under the same name. */
  add(tools: Iterable<AnyTool | ToolDoc>): void {
    for (const tool of tools) this.store.add(isToolDoc(tool) ? tool : docFromTool(tool), tool);
  }

  remove(names: Iterable<string>): void {
    for (const name of names) this.store.remove(name);
  }

  /**
   * Makes the index hold exactly these tools, touching only what changed (list_changed). The
   * same tool object as last time is skipped without reading it, so calling this on every
   * registry change stays cheap with thousands of tools.
   */
  sync(tools: Iterable<AnyTool | ToolDoc>): void {
    const wanted = new Map<string, AnyTool | ToolDoc>();
    for (const tool of tools) wanted.set(tool.name, tool);
    for (const name of this.names()) if (!wanted.has(name)) this.store.remove(name);
    for (const [name, tool] of wanted) {
      const current = this.store.entryOf(name);
      if (current?.source === tool) continue;
      const doc = isToolDoc(tool) ? tool : docFromTool(tool);
      if (!current || signatureOf(current.doc) !== signatureOf(doc)) this.store.add(doc, tool);
      else current.source = tool;
    }
  }

  /** Lexical ranking (select:, +word, free text); synchronous. */
  search(query: string, k: number): SearchResult {
    const parsed = parseQuery(query);
    if (parsed.kind === 'select') return this.select(parsed.names);
    const top = rankTools(this.store, parsed.text, parsed.required, k, this.ranking);
    return { hits: top.map((s) => this.hit(s.id, s.score)), unknown: [] };
  }

  /** Lexical ranking, then the re-ranker (when configured) over the top candidates. */
  async searchReranked(query: string, k: number, signal?: AbortSignal): Promise<SearchResult> {
    const parsed = parseQuery(query);
    if (!this.reranker || parsed.kind === 'select') return this.search(query, k);
    const candidates = rankTools(this.store, parsed.text, parsed.required, Math.max(k, RERANK_POOL), this.ranking);
    if (candidates.length === 0) return { hits: [], unknown: [] };
    const docs = candidates.map((c) => (this.store.entries[c.id] as Entry).doc);
    const reordered = await this.reranker.rerank(
      parsed.text,
      docs,
      candidates.map((c) => c.score),
      signal,
    );
    const hits: SearchHit[] = [];
    for (const r of reordered.slice(0, k)) {
      const id = this.store.ids.get(r.name);
      if (id !== undefined) hits.push(this.hit(id, r.score));
    }
    return { hits, unknown: [] };
  }

  private hit(id: number, score: number): SearchHit {
    const doc = (this.store.entries[id] as Entry).doc;
    return { name: doc.name, server: doc.server, description: oneLine(doc.description), score: round(score) };
  }

  private select(names: string[]): SearchResult {
    const hits: SearchHit[] = [];
    const unknown: SearchResult['unknown'] = [];
    const seen = new Set<number>();
    for (const wanted of names) {
      const id = this.resolveName(wanted);
      if (id === undefined) {
        unknown.push({ name: wanted, suggestions: closestNames(wanted, this.names(), 3) });
      } else if (!seen.has(id)) {
        seen.add(id);
        hits.push(this.hit(id, 1));
      }
    }
    return { hits, unknown };
  }

  /** Exact name, else a unique case-insensitive match of the full or own (server-less) name. */
  private resolveName(wanted: string): number | undefined {
    const exact = this.store.ids.get(wanted);
    if (exact !== undefined) return exact;
    const matches = this.store.byLowerName.get(wanted.toLowerCase());
    return matches.length === 1 ? matches[0] : undefined;
  }
}

function isToolDoc(value: AnyTool | ToolDoc): value is ToolDoc {
  return typeof (value as { description: unknown }).description === 'string';
}

function signatureOf(doc: ToolDoc): string {
  return JSON.stringify([doc.description, doc.server, doc.searchHint, doc.params]);
}

/** Scores are shown to people; six decimals keep ties stable and output short. */
function round(score: number): number {
  return Math.round(score * 1e6) / 1e6;
}
