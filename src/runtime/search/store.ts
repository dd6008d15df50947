// The index's storage: tools in numbered slots, per-term postings, per-field lengths, and
// per-server totals. Incremental: adding or removing one tool touches only its own terms.
import { ownName, type ToolDoc } from './doc.js';
import { grown } from './buffers.js';
import { PostingArena, type Postings } from './postings.js';
import { FIELD_COUNT, TermPacker } from './scorer.js';
import { termOf, unicodePieceWords, WordScanner } from './tokenize.js';
import { WordTable } from './word-table.js';

export interface Entry {
  doc: ToolDoc;
  /** The object the tool was added from (a Tool, or the doc), so a sync can skip it unread. */
  source: object;
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

export type { Postings } from './postings.js';

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

/** Few, so the per-tool arrays first grow while the first tools are indexed (see grown). */
const INITIAL_TOOL_SLOTS = 16;

export class IndexStore {
  // Tools live in slots addressed by number (ids are reused after removal): typed score arrays
  // and typed postings keep a query over 10,000 tools near a millisecond.
  readonly entries: (Entry | undefined)[] = [];
  readonly ids = new Map<string, number>();
  /** Lower-case full and own names → ids, for exact-name queries and select:. */
  readonly byLowerName = new NameIds();
  /** Per tool, FIELD_COUNT term counts (id * FIELD_COUNT + field). */
  lengths = new Int32Array(INITIAL_TOOL_SLOTS * FIELD_COUNT);
  readonly fieldTotals = new Array<number>(FIELD_COUNT).fill(0);
  /** Server slot per tool id (-1: none), dense so a query need not visit the entries. */
  serverOf = new Int32Array(INITIAL_TOOL_SLOTS);
  /** Postings by term id; a list emptied by removals stays, empty. */
  private readonly postings = new PostingArena();
  private readonly termIds = new Map<string, number>();
  private readonly termNames: string[] = [];
  /** word → term id (-1: stop word): one lookup per word while indexing. */
  private readonly wordTerms = new WordTable((word) => {
    const term = termOf(word);
    return term === null ? -1 : this.termId(term);
  });
  private readonly scanner = new WordScanner();
  // What analyse found for the last tool, in buffers reused from tool to tool.
  private readonly packer = new TermPacker();
  private readonly fieldLengths = new Int32Array(FIELD_COUNT);
  /** Unique terms of the name: the first ones in the packer, as the name is read first. */
  private nameTermCount = 0;
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
    return id === undefined || this.postings.count(id) === 0 ? undefined : this.postings.view(id);
  }

  /** How many tools have an index term. */
  docFreq(term: string): number {
    const id = this.termIds.get(term);
    return id === undefined ? 0 : this.postings.count(id);
  }

  entryOf(name: string): Entry | undefined {
    const id = this.ids.get(name);
    return id === undefined ? undefined : this.entries[id];
  }

  add(doc: ToolDoc, source: object = doc): void {
    if (this.ids.has(doc.name)) this.remove(doc.name);
    const own = this.analyse(doc);
    const id = this.freeIds.pop() ?? this.entries.length;
    if (id === this.serverOf.length) this.growToolSlots();
    const serverId = doc.server ? this.serverSlot(doc.server) : -1;
    let serverWords = 0;
    for (let f = 0; f < SERVER_FIELDS; f++) serverWords += this.fieldLengths[f];
    const entry: Entry = { doc, source, lowerName: doc.name.toLowerCase(), serverWords, nameTerms: this.nameTerms(), serverId };
    this.entries[id] = entry;
    this.serverOf[id] = serverId;
    this.ids.set(doc.name, id);
    this.byLowerName.add(entry.lowerName, id);
    const lowerOwn = own.toLowerCase();
    if (lowerOwn !== entry.lowerName) this.byLowerName.add(lowerOwn, id);
    for (let f = 0; f < FIELD_COUNT; f++) {
      this.lengths[id * FIELD_COUNT + f] = this.fieldLengths[f];
      this.fieldTotals[f] += this.fieldLengths[f];
    }
    const { terms, packed, count } = this.packer;
    for (let i = 0; i < count; i++) this.postings.push(terms[i], id, packed[i]);
    if (serverId >= 0) this.serverAdd(serverId, serverWords, 1);
  }

  remove(name: string): void {
    const id = this.ids.get(name);
    if (id === undefined) return;
    const entry = this.entries[id] as Entry;
    this.entries[id] = undefined;
    this.ids.delete(name);
    this.freeIds.push(id);
    for (const lower of new Set([entry.lowerName, ownName(name, entry.doc.server).toLowerCase()])) this.byLowerName.delete(lower, id);
    for (let f = 0; f < FIELD_COUNT; f++) this.fieldTotals[f] -= this.lengths[id * FIELD_COUNT + f];
    // Terms are computed again rather than kept per tool: removal is rare, memory is not.
    this.analyse(entry.doc);
    const { terms, count } = this.packer;
    for (let i = 0; i < count; i++) this.postings.remove(terms[i], id);
    if (entry.serverId >= 0) this.serverAdd(entry.serverId, entry.serverWords, -1);
  }

  /**
   * Reads a tool's fields into the packer (its terms and their packed frequencies) and
   * fieldLengths; the same for adding and removing. Returns the tool's own name.
   */
  private analyse(doc: ToolDoc): string {
    const own = ownName(doc.name, doc.server);
    this.packer.reset();
    this.fieldLengths.fill(0);
    this.indexField(own, 0);
    this.nameTermCount = this.packer.count;
    this.indexField(doc.server ?? '', 1);
    this.indexField(doc.searchHint ?? '', 2);
    this.indexField(doc.description, 3);
    this.indexField(doc.params, 4);
    return own;
  }

  /** The unique terms of the last analysed name, first occurrences in order. */
  private nameTerms(): string[] {
    const names = new Array<string>(this.nameTermCount);
    for (let i = 0; i < this.nameTermCount; i++) names[i] = this.termNames[this.packer.terms[i]];
    return names;
  }

  /**
   * Counts a text's words as terms of `field`, stop words left out; ASCII words need no string
   * (WordTable).
   */
  private indexField(text: string, field: number): void {
    const scanner = this.scanner;
    scanner.scan(text);
    for (let i = 0; i < scanner.count; i++) {
      if (scanner.unicode[i]) {
        for (const word of unicodePieceWords(text, scanner.starts[i], scanner.ends[i])) this.addTerm(this.wordTerms.wordValue(word), field);
      } else {
        this.addTerm(this.wordTerms.rangeValue(text, scanner.starts[i], scanner.ends[i], scanner.hashes[i]), field);
      }
    }
  }

  /** One word of a field, by its term id (-1: a stop word, left out). */
  private addTerm(term: number, field: number): void {
    if (term < 0) return;
    this.fieldLengths[field]++;
    this.packer.add(term, field);
  }

  private growToolSlots(): void {
    this.serverOf = grown(this.serverOf, 0);
    this.lengths = grown(this.lengths, 0);
  }

  private termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.termNames.length;
      this.termIds.set(term, id);
      this.termNames.push(term);
      this.postings.addList();
      this.packer.ensureTerms(this.termNames.length);
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

/**
 * Names → tool ids. Nearly every name is one tool's, so one id is kept as a number and only a
 * shared name gets an array: an array per name was a tenth of the index's heap.
 */
export class NameIds {
  private readonly map = new Map<string, number | number[]>();

  /** Ids in the order they were added; empty for an unknown name. */
  get(name: string): readonly number[] {
    const ids = this.map.get(name);
    if (ids === undefined) return [];
    return typeof ids === 'number' ? [ids] : ids;
  }

  add(name: string, id: number): void {
    const ids = this.map.get(name);
    if (ids === undefined) this.map.set(name, id);
    else if (typeof ids === 'number') this.map.set(name, [ids, id]);
    else ids.push(id);
  }

  delete(name: string, id: number): void {
    const ids = this.map.get(name);
    if (ids === id) this.map.delete(name);
    if (typeof ids !== 'object') return;
    const rest = ids.filter((other) => other !== id);
    this.map.set(name, rest.length === 1 ? rest[0] : rest);
  }
}
