// The index's word → number memo (a word's term id), looked up once per word while indexing.
// Hand-written open addressing rather than a Map<string, number>: a Map lookup needs a string per
// word, and making and collecting those strings was much of indexing time. Here a word is looked
// up by its range of the scanned text and the hash the scanner gave it, and compared in place,
// so no allocation per word on the indexing hot path; only a word met for the first time becomes
// a string. One table per index, so its memory goes with the index.
import { rangeIsWord, wordAt, wordHash } from './tokenize.js';

const EMPTY = -1;
const INITIAL_SLOTS = 1024;

export class WordTable {
  // Per slot (a power of two of them, at most half used), side by side so a probe reads one
  // cache line: the word's hash, and its index in `words` and `values` (EMPTY: a free slot).
  private slots = emptySlots(INITIAL_SLOTS);
  private readonly words: string[] = [];
  private readonly values: number[] = [];

  /** firstValue gives the value of a word on its first lookup. */
  constructor(private readonly firstValue: (word: string) => number) {}

  /** The value of the word in a scanned ASCII range, with the hash the scanner gave it. */
  rangeValue(text: string, start: number, end: number, hash: number): number {
    const mask = (this.slots.length >>> 1) - 1;
    for (let slot = spread(hash) & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot * 2 + 1];
      if (entry === EMPTY) return this.insert(slot, hash, wordAt(text, start, end));
      if (this.slots[slot * 2] === hash && rangeIsWord(text, start, end, this.words[entry])) return this.values[entry];
    }
  }

  /** The value of a word given as a string (the words of non-ASCII pieces). */
  wordValue(word: string): number {
    const hash = wordHash(word);
    const mask = (this.slots.length >>> 1) - 1;
    for (let slot = spread(hash) & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot * 2 + 1];
      if (entry === EMPTY) return this.insert(slot, hash, word);
      if (this.slots[slot * 2] === hash && this.words[entry] === word) return this.values[entry];
    }
  }

  private insert(slot: number, hash: number, word: string): number {
    const value = this.firstValue(word);
    this.slots[slot * 2] = hash;
    this.slots[slot * 2 + 1] = this.words.length;
    this.words.push(word);
    this.values.push(value);
    if (this.words.length * 4 > this.slots.length) this.grow(); // more than half the slots used
    return value;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = emptySlots(old.length); // twice the slots: old.length is two numbers per slot
    const mask = (this.slots.length >>> 1) - 1;
    for (let at = 0; at < old.length; at += 2) {
      if (old[at + 1] === EMPTY) continue;
      let slot = spread(old[at]) & mask;
      while (this.slots[slot * 2 + 1] !== EMPTY) slot = (slot + 1) & mask;
      this.slots[slot * 2] = old[at];
      this.slots[slot * 2 + 1] = old[at + 1];
    }
  }
}

/** `count` free slots of two numbers each. */
function emptySlots(count: number): Int32Array {
  return new Int32Array(count * 2).fill(EMPTY);
}

/** Mixes the high bits of a word hash into the low ones the slot mask keeps. */
function spread(hash: number): number {
  return hash ^ (hash >>> 15);
}
