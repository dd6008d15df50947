// A query as weighted index terms: its own words (weight 1, each once), the words two of them
// make when written together, and synonyms of its words (both at reduced weights).
import type { RankingParams } from './scorer.js';
import { synonymsOf } from './synonyms.js';
import { isStopWord, PIECE_BREAK, termOf, terms } from './tokenize.js';

const PLAIN_PIECE = /^[\p{L}\p{N}]+$/u;
const DIGITS = /^\d+$/;

/**
 * Terms of adjacent pieces written together: people write "zip code", "user name", "QR code",
 * "in-play" where tool names say zipcode, username, QRCode, InPlay. A pair of stop words ("on a")
 * or of numbers ("2 5") is not a compound. A compound no tool has simply matches nothing.
 */
export function compoundTerms(text: string): string[] {
  const pieces = text
    .split(PIECE_BREAK)
    .map((piece) => piece.replace(/['\u2019]/g, '').toLowerCase())
    .filter((piece) => piece !== '');
  const out: string[] = [];
  for (let i = 0; i + 1 < pieces.length; i++) {
    const [first, second] = [pieces[i], pieces[i + 1]];
    if (!PLAIN_PIECE.test(first) || !PLAIN_PIECE.test(second)) continue;
    if ((isStopWord(first) && isStopWord(second)) || (DIGITS.test(first) && DIGITS.test(second))) continue;
    const term = termOf(first + second);
    if (term !== null) out.push(term);
  }
  return out;
}

export function queryWeights(text: string, params: Pick<RankingParams, 'synonymWeight' | 'compoundWeight'>): Map<string, number> {
  const weights = new Map<string, number>();
  // Each distinct word counts once: a request repeating "movie" four times is not more about
  // movies than one saying it once (measured: repeats weighted up ranked worse).
  for (const term of terms(text)) weights.set(term, 1);
  for (const term of [...weights.keys()]) {
    for (const synonym of synonymsOf(term)) if (!weights.has(synonym)) weights.set(synonym, params.synonymWeight);
  }
  for (const term of compoundTerms(text)) weights.set(term, Math.max(weights.get(term) ?? 0, params.compoundWeight));
  return weights;
}
