// Turning names, descriptions and queries into index terms: identifier splitting, stop words,
// stemming. One function for both sides, so a query word always meets its document form.
import { stem } from './stem.js';

// Function words and request filler ("can you please provide me with"): they carry no tool
// meaning, and long conversational queries are mostly made of them. "id" is here as the
// contraction "I'd"; as a parameter word ("by ID") it is in most requests and too many tools to
// tell them apart (measured: dropping it ranks better).
const STOP_WORDS = new Set(
  (
    'a about above after again all also am an and any are as at be been before being below between both but by ' +
    'can could did do does doing done down during each either etc few for from further had has have having he her ' +
    'here hers him his how i if im in into is it its itself just let lets like may me might more most much must my ' +
    'myself no nor not now of off on once only or other our ours out over own per please same she should so some ' +
    'such than that the their theirs them then there these they this those through thus to too under until up upon ' +
    'us very via was we were what when where which while who whom whose why will with within without would yes yet ' +
    'you your yours ive id ill youre dont want wants wanted need needs needed help helps would kindly provide ' +
    'provides providing give gives tell interested know curious planning going make sure ' +
    'thing things something anything everything well really also additionally furthermore moreover s t'
  ).split(' '),
);

// Character classes for the splitter.
const OTHER = 0;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const LETTER_RE = /\p{L}/u;

function classOf(code: number, char: string): number {
  if (code >= 97 && code <= 122) return LOWER;
  if (code >= 65 && code <= 90) return UPPER;
  if (code >= 48 && code <= 57) return DIGIT;
  if (code < 128) return OTHER;
  // Other scripts: letters without case behave like lower-case letters.
  if (!LETTER_RE.test(char)) return OTHER;
  return char.toLowerCase() !== char ? UPPER : LOWER;
}

/** Pieces between separators; most are plain words ("weather", "Forecast") needing no scan. */
const SEPARATORS = /[^\p{L}\p{N}'\u2019]+/u;
const ASCII_SEPARATORS = /[^A-Za-z0-9']+/;
const NON_ASCII = /[^\x00-\x7f]/;
const PLAIN_WORD = /^[A-Z]?[a-z]*$|^\d+$/;

/**
 * Splits identifiers and prose into lower-case words (no stop-word removal, no stemming):
 * at `_`, `-`, `.`, spaces and other punctuation, camelCase humps (`getUserID` → get user id,
 * `HTTPServer` → http server) and letter/digit boundaries (`v2search` → v 2 search).
 * Apostrophes join ("don't" → dont) so contractions hit the stop list instead of leaving "t".
 */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  // ASCII text (most tool catalogs) splits faster without Unicode property classes.
  for (const piece of text.split(NON_ASCII.test(text) ? SEPARATORS : ASCII_SEPARATORS)) {
    if (piece === '') continue;
    if (PLAIN_WORD.test(piece)) {
      words.push(piece.toLowerCase());
      continue;
    }
    const joined = piece.replace(/['\u2019]/g, '');
    const before = words.length;
    splitHumps(joined, words);
    // Keep the whole piece too: prose writes "WhatsApp" where a name has "Whatsapp", and a
    // query naming "getInventory" should meet the tool called exactly that.
    if (words.length - before > 1) words.push(joined.toLowerCase());
  }
  return words;
}

/** Character scan of one mixed piece ("getUserID2", "HTTPServer") into words. */
function splitHumps(piece: string, words: string[]): void {
  let start = -1;
  let prev = OTHER;
  for (let i = 0; i <= piece.length; i++) {
    const cls = i < piece.length ? classOf(piece.charCodeAt(i), piece[i]) : OTHER;
    if (start >= 0) {
      const boundary =
        cls === OTHER ||
        (prev === LOWER && cls === UPPER) ||
        (prev === DIGIT) !== (cls === DIGIT) ||
        // "HTTPServer": the S starts a new word when a lower-case letter follows it.
        (prev === UPPER && cls === UPPER && i + 1 < piece.length && classOf(piece.charCodeAt(i + 1), piece[i + 1]) === LOWER);
      if (boundary) {
        words.push(piece.slice(start, i).toLowerCase());
        start = -1;
      }
    }
    if (start < 0 && cls !== OTHER) start = i;
    prev = cls;
  }
}

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

// word → its index term, or null for a stop word; one lookup per word on the indexing hot path.
const termCache = new Map<string, string | null>();
const MAX_CACHE = 200_000;

/** The index term of one lower-case word, or null for a stop word. */
export function termOf(word: string): string | null {
  let term = termCache.get(word);
  if (term === undefined) {
    term = STOP_WORDS.has(word) ? null : stem(word);
    if (termCache.size >= MAX_CACHE) termCache.clear(); // bound memory for odd vocabularies
    termCache.set(word, term);
  }
  return term;
}

/** Index terms of a text: split, stop words dropped, stemmed. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const word of splitWords(text)) {
    const term = termOf(word);
    if (term !== null) out.push(term);
  }
  return out;
}
