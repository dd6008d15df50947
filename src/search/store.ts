// The index's storage: tools in numbered slots, per-term postings, per-field lengths, and
// per-server totals. Incremental: adding or removing one tool touches only its own terms.
import { ownName, type ToolDoc } from './doc.js';
import { FIELD_COUNT, packTf, type PackedTerms } from './scorer.js';
import { termOf, unicodePieceWords, WordScanner } from './tokenize.js';
import { WordTable } from './word-table.js';

export interface Entry {
  doc: ToolDoc;
  /** Lower-case full name, for `+word` queries. */
  lowerName: string;
  /** Words and terms of the name, computed on the first `+word` query. */
  nameWords?: Set<string>;
  /** Words the tool adds to its server document. */
  serverWords: number;
  /** Unique terms of the tool's own name, for name coverage. */
  nameTerms: string[];
  /** Slot of its server, -1 when it has none. */
  serverId: number;
}

/** One term's postings: parallel arrays of tool ids and packed field frequencies. */
export interface Postings {
  ids: number[];
  tfs: number[];
}

export interface ServerEntry {
  name: string;
  /** Words of its tools' name, server, hint and description fields together. */
  length: number;
  tools: number;
}

/**
 * Fields that describe a server (name, server, hint, description); parameters are too generic
 * ("id", "page") to say what a server offers.
 */
export const SERVER_FIELDS = 4;

export class IndexStore {
  // Tools live in slots addressed by number (ids are reused after removal): typed score arrays
  // and number postings keep a query over 10,000 tools near a millisecond.
  readonly entries: (Entry | undefined)[] = [];
  readonly ids = new Map<string, number>();
  /** Lower-case full and own names → ids, for exact-name queries and select:. */
  readonly byLowerName = new Map<string, number[]>();
  /** Per tool, FIELD_COUNT term counts (id * FIELD_COUNT + field). */
  readonly lengths: number[] = [];
  readonly fieldTotals = new Array<number>(FIELD_COUNT).fill(0);
  /** Server slot per tool id (-1: none), dense so a query need not visit the entries. */
  readonly serverOf: number[] = [];
  /** Postings by term id; a list emptied by removals stays, empty. */
  private readonly postingLists: Postings[] = [];
  private readonly termIds = new Map<string, number>();
  private readonly termNames: string[] = [];
  /** word → term id (-1: stop word): one lookup per word while indexing. */
  private readonly wordTerms = new WordTable((word) => {
    const term = termOf(word);
    return term === null ? -1 : this.termId(term);
  });
  private readonly scanner = new WordScanner();
  readonly servers: (ServerEntry | undefined)[] = [];
  readonly serverIds = new Map<string, number>();
  serverLengthTotal = 0;
  private readonly freeIds: number[] = [];

  get size(): number {
    return this.ids.size;
  }

  /** The postings of an index term, undefined when no tool has it. */
  postingsOf(term: string): Postings | undefined {
    const id = this.termIds.get(term);
    const list = id === undefined ? undefined : this.postingLists[id];
    return list && list.ids.length > 0 ? list : undefined;
  }

  entryOf(name: string): Entry | undefined {
    const id = this.ids.get(name);
    return id === undefined ? undefined : this.entries[id];
  }

  add(doc: ToolDoc): void {
    if (this.ids.has(doc.name)) this.remove(doc.name);
    const { own, fields, tf } = this.analyse(doc);
    const id = this.freeIds.pop() ?? this.entries.length;
    const serverId = doc.server ? this.serverSlot(doc.server) : -1;
    let serverWords = 0;
    for (let f = 0; f < SERVER_FIELDS; f++) serverWords += fields[f].length;
    const entry: Entry = { doc, lowerName: doc.name.toLowerCase(), serverWords, nameTerms: this.uniqueTerms(fields[0]), serverId };
    this.entries[id] = entry;
    this.serverOf[id] = serverId;
    this.ids.set(doc.name, id);
    pushTo(this.byLowerName, entry.lowerName, id);
    const lowerOwn = own.toLowerCase();
    if (lowerOwn !== entry.lowerName) pushTo(this.byLowerName, lowerOwn, id);
    for (let f = 0; f < FIELD_COUNT; f++) {
      this.lengths[id * FIELD_COUNT + f] = fields[f].length;
      this.fieldTotals[f] += fields[f].length;
    }
    for (let i = 0; i < tf.terms.length; i++) {
      const list = this.postingLists[tf.terms[i]];
      list.ids.push(id);
      list.tfs.push(tf.packed[i]);
    }
    if (serverId >= 0) this.serverAdd(serverId, serverWords, 1);
  }

  remove(name: string): void {
    const id = this.ids.get(name);
    if (id === undefined) return;
    const entry = this.entries[id] as Entry;
    this.entries[id] = undefined;
    this.ids.delete(name);
    this.freeIds.push(id);
    for (const lower of new Set([entry.lowerName, ownName(name, entry.doc.server).toLowerCase()])) {
      const rest = (this.byLowerName.get(lower) ?? []).filter((other) => other !== id);
      if (rest.length > 0) this.byLowerName.set(lower, rest);
      else this.byLowerName.delete(lower);
    }
    for (let f = 0; f < FIELD_COUNT; f++) this.fieldTotals[f] -= this.lengths[id * FIELD_COUNT + f];
    // Terms are computed again rather than kept per tool: removal is rare, memory is not.
    for (const term of this.analyse(entry.doc).tf.terms) {
      const list = this.postingLists[term];
      const at = list.ids.indexOf(id);
      if (at < 0) continue;
      // Order within a postings list does not matter: the last one takes the removed place.
      list.ids[at] = list.ids[list.ids.length - 1];
      list.tfs[at] = list.tfs[list.tfs.length - 1];
      list.ids.pop();
      list.tfs.pop();
    }
    if (entry.serverId >= 0) this.serverAdd(entry.serverId, entry.serverWords, -1);
  }

  /** A tool's term ids per field and packed per term; the same for adding and removing. */
  private analyse(doc: ToolDoc): { own: string; fields: number[][]; tf: PackedTerms } {
    const own = ownName(doc.name, doc.server);
    const fields = [
      this.termIdsOf(own),
      this.termIdsOf(doc.server ?? ''),
      this.termIdsOf(doc.searchHint ?? ''),
      this.termIdsOf(doc.description),
      this.termIdsOf(doc.params),
    ];
    return { own, fields, tf: packTf(fields) };
  }

  /** The terms of ids, first occurrences in order; a name has a few, so a list beats a Set. */
  private uniqueTerms(ids: number[]): string[] {
    const unique: string[] = [];
    for (const id of ids) {
      const term = this.termNames[id];
      if (!unique.includes(term)) unique.push(term);
    }
    return unique;
  }

  /** Term ids of a text's words, stop words left out; ASCII words need no string (WordTable). */
  private termIdsOf(text: string): number[] {
    const ids: number[] = [];
    this.scanner.scan(text);
    const { starts, ends, hashes, unicode } = this.scanner;
    for (let i = 0; i < this.scanner.count; i++) {
      if (unicode[i]) {
        for (const word of unicodePieceWords(text, starts[i], ends[i])) {
          const id = this.wordTerms.wordValue(word);
          if (id >= 0) ids.push(id);
        }
      } else {
        const id = this.wordTerms.rangeValue(text, starts[i], ends[i], hashes[i]);
        if (id >= 0) ids.push(id); // -1: a stop word
      }
    }
    return ids;
  }

  private termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.termNames.length;
      this.termIds.set(term, id);
      this.termNames.push(term);
      this.postingLists.push({ ids: [], tfs: [] });
    }
    return id;
  }

  private serverSlot(name: string): number {
    let id = this.serverIds.get(name);
    if (id === undefined) {
      id = this.servers.length;
      this.servers.push({ name, length: 0, tools: 0 });
      this.serverIds.set(name, id);
    }
    return id;
  }

  /**
   * Adds (sign 1) or subtracts (sign -1) one tool's words to its server's totals. Server term
   * frequencies are not stored: a query sums them from the tool postings it reads anyway.
   */
  private serverAdd(id: number, words: number, sign: 1 | -1): void {
    const server = this.servers[id] as ServerEntry;
    server.tools += sign;
    server.length += sign * words;
    this.serverLengthTotal += sign * words;
    // An emptied server keeps its slot (ids stay valid) but leaves the statistics.
    if (server.tools === 0) {
      this.serverIds.delete(server.name);
      this.servers[id] = undefined;
    }
  }
}

function pushTo(map: Map<string, number[]>, key: string, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
