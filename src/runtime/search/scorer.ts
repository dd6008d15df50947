// Scoring primitives: BM25F over tool fields, BM25 for server documents, packed frequencies.
// Written here rather than with minisearch because (1) BM25F saturates the *combined*
// field-weighted frequency, so a word in both name and description is not counted twice at full
// strength as minisearch's per-field sum does, and (2) ranking blends each tool's score with its
// server's score ("which provider fits this request" is often the strongest signal), which needs
// the raw statistics. BM25/BM25F: Robertson & Zaragoza, "The Probabilistic Relevance Framework".
import { grown } from './buffers.js';

/** Field order in the packed term frequencies and in RankingParams arrays. */
const FIELDS = ['name', 'server', 'hint', 'description', 'params'] as const;
export const FIELD_COUNT = FIELDS.length;

export interface RankingParams {
  /** BM25 term-frequency saturation. */
  k1: number;
  /** Per field: weight of one occurrence, and length normalisation b. */
  weights: readonly number[];
  b: readonly number[];
  /** Share of the final score that comes from the tool's server (0 = tools only). */
  serverBlend: number;
  /** Length normalisation of server documents (all of a server's tools together). */
  serverB: number;
  /** Share of a tool's own score that comes from its best-matching sentence of the query. */
  clauseWeight: number;
  /** Added when the query names the tool verbatim (normalised scores are at most 1). */
  mentionBonus: number;
  /** Share of a tool's own score that comes from how much of its name the query covers. */
  nameCoverage: number;
  /** Weight of a synonym relative to the query's own word. */
  synonymWeight: number;
  /** Weight of two adjacent query words written together ("zip code" → zipcode). */
  compoundWeight: number;
}

export const DEFAULT_RANKING: RankingParams = {
  k1: 2,
  weights: [3, 1.5, 2, 1, 0.5],
  b: [0.4, 0.3, 0.5, 0.75, 0.75],
  serverBlend: 0.5,
  serverB: 0.75,
  clauseWeight: 0.5,
  mentionBonus: 0.3,
  nameCoverage: 0.3,
  synonymWeight: 0.2,
  compoundWeight: 0.6,
};

// Term frequencies of the five fields packed into one small integer, 6 bits each (30 bits, a
// V8 small integer): one number per posting, read with bit operations. Counts stop at 63, far
// past where BM25 saturates.
const FIELD_BITS = 6;
const FIELD_MASK = (1 << FIELD_BITS) - 1;
const MAX_TF = FIELD_MASK;

/**
 * One tool's unique term ids (in order of first occurrence) with their packed per-field
 * frequencies, gathered a word at a time into buffers reused from tool to tool: arrays per
 * tool were much of an index build's garbage.
 */
export class TermPacker {
  // All sized by term count (ensureTerms, as terms are made), so counting a word never grows a
  // buffer (see grown).
  terms = new Int32Array(0);
  packed = new Int32Array(0);
  /** Unique terms so far. */
  count = 0;
  // Indexed by term id: a term's slot in `terms`, valid only when its stamp is this tool's.
  private slotOf = new Int32Array(0);
  private stampOf = new Int32Array(0);
  private stamp = 0;

  /** Makes room for term ids below `termCount`. */
  ensureTerms(termCount: number): void {
    if (termCount <= this.stampOf.length) return;
    this.terms = grown(this.terms, termCount);
    this.packed = grown(this.packed, termCount);
    this.slotOf = grown(this.slotOf, termCount);
    this.stampOf = grown(this.stampOf, termCount);
  }

  /** Starts the next tool. */
  reset(): void {
    this.count = 0;
    this.stamp = (this.stamp + 1) | 0;
    if (this.stamp === 0) this.restartStamps();
  }

  /** Counts one occurrence of a term in a field. */
  add(term: number, field: number): void {
    let slot = this.slotOf[term];
    if (this.stampOf[term] !== this.stamp) slot = this.newSlot(term);
    const shift = field * FIELD_BITS;
    if (((this.packed[slot] >>> shift) & FIELD_MASK) < MAX_TF) this.packed[slot] += 1 << shift;
  }

  private newSlot(term: number): number {
    const slot = this.count++;
    this.terms[slot] = term;
    this.packed[slot] = 0;
    this.slotOf[term] = slot;
    this.stampOf[term] = this.stamp;
    return slot;
  }

  /** After 2^32 tools the stamps come round again: old ones must not look current. */
  private restartStamps(): void {
    this.stampOf.fill(0);
    this.stamp = 1;
  }
}

/** Occurrences in the fields below `fieldLimit` (e.g. all but parameters). */
export function countBelow(packed: number, fieldLimit: number): number {
  let count = 0;
  let rest = packed;
  for (let f = 0; f < fieldLimit && rest > 0; f++) {
    count += rest & FIELD_MASK;
    rest >>>= FIELD_BITS;
  }
  return count;
}

/** BM25 inverse document frequency (the "+1" form, never negative). */
export function idf(docCount: number, docFreq: number): number {
  return Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5));
}

/** BM25F: field-weighted, length-normalised frequency, then one saturation. */
export function bm25f(
  packed: number,
  lengths: ArrayLike<number>,
  offset: number,
  avgLengths: ArrayLike<number>,
  params: RankingParams,
): number {
  let tf = 0;
  let rest = packed;
  for (let f = 0; f < FIELD_COUNT && rest > 0; f++) {
    const raw = rest & FIELD_MASK;
    rest >>>= FIELD_BITS;
    if (raw === 0) continue;
    const norm = 1 - params.b[f] + (params.b[f] * lengths[offset + f]) / (avgLengths[f] || 1);
    tf += (params.weights[f] * raw) / norm;
  }
  return tf / (params.k1 + tf);
}

/** Plain BM25 saturation for one field (the server documents). */
export function bm25(tf: number, length: number, avgLength: number, k1 = 1.2, b = 0.75): number {
  const norm = tf / (1 - b + (b * length) / (avgLength || 1));
  return norm / (k1 + norm);
}
