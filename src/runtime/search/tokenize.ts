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
const APOSTROPHE = 4;
const APOSTROPHE_CODE = 39;
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

/** Classes of the ASCII characters by code, for the scanner's one lookup per character. */
const ASCII_CLASS = new Uint8Array(128);
for (let code = 0; code < 128; code++) ASCII_CLASS[code] = code === APOSTROPHE_CODE ? APOSTROPHE : classOf(code, String.fromCharCode(code));

/** What a piece (a run between separators) is made of; the ASCII ones are also in ASCII_CLASS. */
const PIECE_CHARS = String.raw`\p{L}\p{N}'\u2019`;
/** The separators between pieces (what a writer typed as one word). */
export const PIECE_BREAK = new RegExp(`[^${PIECE_CHARS}]+`, 'u');
// Sticky: they match at lastIndex only, so the scanner tests a position without a slice.
const SEPARATOR_RUN = new RegExp(`[^${PIECE_CHARS}]+`, 'uy');
const PIECE_RUN = new RegExp(`[${PIECE_CHARS}]+`, 'uy');
/** Most pieces are plain words ("weather", "Forecast") needing no scan. */
const PLAIN_WORD = /^[A-Z]?[a-z]*$|^\d+$/;

/**
 * Splits identifiers and prose into lower-case words (no stop-word removal, no stemming):
 * at `_`, `-`, `.`, spaces and other punctuation, camelCase humps (`getUserID` → get user id,
 * `HTTPServer` → http server) and letter/digit boundaries (`v2search` → v 2 search).
 * Apostrophes join ("don't" → dont) so contractions hit the stop list instead of leaving "t".
 */
export function splitWords(text: string): string[] {
  const scanner = sharedScanner;
  scanner.scan(text);
  const words: string[] = [];
  for (let i = 0; i < scanner.count; i++) {
    const start = scanner.starts[i];
    const end = scanner.ends[i];
    if (scanner.unicode[i]) words.push(...unicodePieceWords(text, start, end));
    else words.push(wordAt(text, start, end));
  }
  return words;
}

/** The words of a range the scanner flagged `unicode`: one piece, split with Unicode classes. */
export function unicodePieceWords(text: string, start: number, end: number): string[] {
  const words: string[] = [];
  splitPiece(text.slice(start, end), words);
  return words;
}

// ------------------------------------------------------------------ ASCII ranges

/**
 * The word of a scanned ASCII range: lower-cased, apostrophes dropped. Also how the index makes
 * the string of a word it meets for the first time, so both agree on every word.
 */
export function wordAt(text: string, start: number, end: number): string {
  const slice = text.slice(start, end);
  return (slice.includes("'") ? slice.replaceAll("'", '') : slice).toLowerCase();
}

/** Whether a scanned ASCII range holds `word` (is it wordAt's), compared without a string. */
export function rangeIsWord(text: string, start: number, end: number, word: string): boolean {
  let at = 0;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code === APOSTROPHE_CODE) continue;
    if (at === word.length || (code | LOWER_BIT) !== word.charCodeAt(at++)) return false;
  }
  return at === word.length;
}

// FNV-1a over a word's character codes with their 0x20 bit set: that lower-cases ASCII letters
// and leaves digits and lower-case letters as they are, so a range hashes like its word.
const HASH_SEED = 0x811c9dc5 | 0;
const LOWER_BIT = 0x20;

function hashStep(hash: number, code: number): number {
  return Math.imul(hash ^ (code | LOWER_BIT), 0x01000193);
}

/** The hash the scanner gives the ranges of this word; any word has one, for a table's key. */
export function wordHash(word: string): number {
  return rangeHash(word, 0, word.length);
}

function rangeHash(text: string, start: number, end: number): number {
  let hash = HASH_SEED;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code !== APOSTROPHE_CODE) hash = hashStep(hash, code);
  }
  return hash;
}

const INITIAL_RANGES = 64;
/** Buffers past this many ranges (a very long text) are let go rather than kept for the next. */
const MAX_KEPT_RANGES = 1 << 14;

/**
 * Word boundaries with the rules of splitWords, found in one pass over character codes. Words
 * are ranges of the text (see wordAt) with the hash of their word (see wordHash) rather than
 * strings, so the index looks them up without making a string per word or reading characters
 * twice. The buffers are reused from text to text. A piece with non-ASCII letters or digits
 * stays whole, flagged `unicode`, for unicodePieceWords: Unicode classes are slow to test per
 * character, and such pieces are rare in tool catalogs.
 */
export class WordScanner {
  starts = new Int32Array(INITIAL_RANGES);
  ends = new Int32Array(INITIAL_RANGES);
  hashes = new Int32Array(INITIAL_RANGES);
  /** 1 where a range is a whole piece with non-ASCII letters or digits (its hash unset). */
  unicode = new Uint8Array(INITIAL_RANGES);
  /** Ranges found by the last scan. */
  count = 0;

  scan(text: string): void {
    this.count = 0;
    if (this.starts.length > MAX_KEPT_RANGES) this.resize(INITIAL_RANGES);
    let i = 0;
    while (i < text.length) {
      const code = text.charCodeAt(i);
      if (code >= 128) i = this.scanNonAscii(text, i);
      else if (ASCII_CLASS[code] === OTHER) i++;
      else i = this.scanPiece(text, i);
    }
  }

  /** At a non-ASCII character between pieces: skips the separators there, or takes the piece. */
  private scanNonAscii(text: string, at: number): number {
    const end = matchEnd(SEPARATOR_RUN, text, at);
    return end >= 0 ? end : this.pushUnicodePiece(text, at);
  }

  /**
   * Words of the piece (a run of letters, digits and apostrophes) starting at `start`, as
   * splitPiece finds them. Returns where the piece ends.
   */
  private scanPiece(text: string, start: number): number {
    const before = this.count;
    let wordStart = -1;
    let hash = HASH_SEED; // of the word so far
    let hashBeforePrev = HASH_SEED; // of the word without its last character
    let prev = OTHER; // class and position of the last letter or digit
    let prevAt = -1;
    let i = start;
    for (; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code >= 128) {
        if (matchEnd(SEPARATOR_RUN, text, i) >= 0) break;
        this.count = before; // a non-ASCII letter or digit: the whole piece goes the Unicode way
        return this.pushUnicodePiece(text, start);
      }
      const cls = ASCII_CLASS[code];
      if (cls === OTHER) break;
      if (cls === APOSTROPHE) continue; // joins its neighbours, as if absent
      if (wordStart < 0) {
        wordStart = i;
      } else if ((prev === LOWER && cls === UPPER) || (prev === DIGIT) !== (cls === DIGIT)) {
        this.push(wordStart, i, hash, 0);
        wordStart = i;
        hash = HASH_SEED;
      } else if (prev === UPPER && cls === LOWER && wordStart < prevAt && !isPluralS(text, i)) {
        // "HTTPServer": the upper-case letter before a lower-case one starts the next word.
        this.push(wordStart, prevAt, hashBeforePrev, 0);
        wordStart = prevAt;
        hash = hashStep(HASH_SEED, text.charCodeAt(prevAt));
      }
      hashBeforePrev = hash;
      hash = hashStep(hash, code);
      prev = cls;
      prevAt = i;
      if (cls === LOWER) {
        // Lower-case letters after a letter start no word: take the rest of the run at once
        // (hashBeforePrev goes stale, but it is only read after an upper-case letter).
        let next = i + 1;
        for (; next < text.length; next++) {
          const c = text.charCodeAt(next);
          if (!isLower(c)) break;
          hash = hashStep(hash, c);
        }
        prevAt = i = next - 1;
      }
    }
    if (wordStart >= 0) {
      this.push(wordStart, i, hash, 0);
      // Keep the whole piece too: prose writes "WhatsApp" where a name has "Whatsapp", and a
      // query naming "getInventory" should meet the tool called exactly that.
      if (this.count - before > 1) this.push(start, i, rangeHash(text, start, i), 0);
    }
    return i;
  }

  private pushUnicodePiece(text: string, start: number): number {
    const end = matchEnd(PIECE_RUN, text, start);
    this.push(start, end, 0, 1);
    return end;
  }

  private push(start: number, end: number, hash: number, unicode: number): void {
    if (this.count === this.starts.length) this.resize(this.count * 2);
    this.starts[this.count] = start;
    this.ends[this.count] = end;
    this.hashes[this.count] = hash;
    this.unicode[this.count] = unicode;
    this.count++;
  }

  /** New buffers of `size` ranges, keeping the ranges found so far. */
  private resize(size: number): void {
    const starts = new Int32Array(size);
    const ends = new Int32Array(size);
    const hashes = new Int32Array(size);
    const unicode = new Uint8Array(size);
    starts.set(this.starts.subarray(0, this.count));
    ends.set(this.ends.subarray(0, this.count));
    hashes.set(this.hashes.subarray(0, this.count));
    unicode.set(this.unicode.subarray(0, this.count));
    this.starts = starts;
    this.ends = ends;
    this.hashes = hashes;
    this.unicode = unicode;
  }
}

/** Reused by every splitWords call (synchronous, so never two at once). */
const sharedScanner = new WordScanner();

function isLower(code: number): boolean {
  return code >= 97 && code <= 122;
}

/**
 * A lone "s" after capitals is a plural ("URLs", "IDs", "UUIDs"), not the start of a word as in
 * "HTTPServer". Apostrophes are skipped, as the splitter ignores them ("URL's").
 */
function isPluralS(text: string, at: number): boolean {
  if (text.charCodeAt(at) !== 115) return false;
  let next = at + 1;
  while (next < text.length && (text[next] === "'" || text[next] === '\u2019')) next++;
  return !isLower(text.charCodeAt(next));
}

/** Where a sticky regex's match at `at` ends, -1 when it does not match there. */
function matchEnd(sticky: RegExp, text: string, at: number): number {
  sticky.lastIndex = at;
  return sticky.test(text) ? sticky.lastIndex : -1;
}

// ------------------------------------------------------------------ Unicode pieces

/** Words of one piece (no separators in it). */
function splitPiece(piece: string, words: string[]): void {
  if (PLAIN_WORD.test(piece)) {
    words.push(piece.toLowerCase());
    return;
  }
  const joined = piece.replace(/['\u2019]/g, '');
  const before = words.length;
  splitHumps(joined, words);
  // Keep the whole piece too (see WordScanner.scanPiece).
  if (words.length - before > 1) words.push(joined.toLowerCase());
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
        // "HTTPServer": the S starts a new word when a lower-case letter follows it, unless that
        // letter is a plural "s" ("URLs").
        (prev === UPPER &&
          cls === UPPER &&
          i + 1 < piece.length &&
          classOf(piece.charCodeAt(i + 1), piece[i + 1]) === LOWER &&
          !(piece[i + 1] === 's' && (i + 2 >= piece.length || classOf(piece.charCodeAt(i + 2), piece[i + 2]) !== LOWER)));
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

// word → its index term, or null for a stop word: queries look up every word, the index its new ones.
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
