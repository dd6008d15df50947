// A small Porter-style suffix stripper. Hand-written because no stemmer package is installed;
// it follows Porter's steps 1a-1c (plurals, -ed, -ing, -y) plus a handful of step-2 suffixes
// (M. F. Porter, "An algorithm for suffix stripping", 1980). Documents and queries go through the
// same function, so an imperfect stem still matches its own inflections ("weathers" = "weather").

const VOWEL = /[aeiou]/;

/** Porter's measure m: the number of vowel-consonant sequences in the stem. */
function measure(stem: string): number {
  let m = 0;
  let prevVowel = false;
  for (let i = 0; i < stem.length; i++) {
    const vowel = isVowelAt(stem, i);
    if (prevVowel && !vowel) m++;
    prevVowel = vowel;
  }
  return m;
}

function isVowelAt(word: string, i: number): boolean {
  const c = word[i];
  if (VOWEL.test(c)) return true;
  // 'y' after a consonant acts as a vowel ("happy").
  return c === 'y' && i > 0 && !VOWEL.test(word[i - 1]);
}

function hasVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (isVowelAt(stem, i)) return true;
  return false;
}

/** Ends consonant-vowel-consonant, the last not w/x/y ("hop" → "hope" after "hoping"). */
function endsCVC(s: string): boolean {
  const n = s.length;
  if (n < 3) return false;
  return !isVowelAt(s, n - 3) && isVowelAt(s, n - 2) && !isVowelAt(s, n - 1) && !/[wxy]/.test(s[n - 1]);
}

function step1(word: string): string {
  let w = word;
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ies')) w = w.length > 4 ? w.slice(0, -3) + 'y' : w.slice(0, -1);
  else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is') && w.length > 3) w = w.slice(0, -1);

  let stripped = false;
  if (w.endsWith('eed')) {
    if (measure(w.slice(0, -3)) > 0) w = w.slice(0, -1);
  } else if (w.endsWith('ed') && hasVowel(w.slice(0, -2)) && w.length > 4) {
    w = w.slice(0, -2);
    stripped = true;
  } else if (w.endsWith('ing') && hasVowel(w.slice(0, -3)) && w.length > 5) {
    w = w.slice(0, -3);
    stripped = true;
  }
  if (stripped) {
    if (/(at|bl|iz)$/.test(w)) w += 'e';
    else if (/([^aeiouslz])\1$/.test(w)) w = w.slice(0, -1);
    else if (measure(w) === 1 && endsCVC(w)) w += 'e';
  }
  if (w.endsWith('y') && w.length > 2 && hasVowel(w.slice(0, -1))) w = w.slice(0, -1) + 'i';
  return w;
}

// A few derivational suffixes mapped to their verb/adjective form ("validation" → "validate").
// Deliberately fewer than Porter's steps 2-5: stripping -al, -ic, -er, -e as well merged
// "animal" with "anime" and measured worse on tool catalogs.
const SUFFIXES: ReadonlyArray<readonly [string, string]> = [
  ['ational', 'ate'],
  ['ization', 'ize'],
  ['isation', 'ize'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['ation', 'ate'],
  ['ator', 'ate'],
];

function stripSuffix(word: string): string {
  for (const [suffix, replacement] of SUFFIXES) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, -suffix.length);
    return measure(stem) > 0 ? stem + replacement : word;
  }
  return word;
}

// Words whose final "s" is not a plural: stripping it would merge "news" with "new".
const INVARIANT = new Set(['news', 'series', 'species', 'sms', 'mms', 'dns', 'https', 'gps', 'aws', 'ios', 'macos', 'lens', 'canvas', 'atlas', 'alias', 'bias', 'chaos']);

/** Stems one lower-case word; words of three letters or fewer and non-ASCII words stay as they are. */
export function stem(word: string): string {
  if (word.length <= 3 || INVARIANT.has(word) || !/^[a-z]+$/.test(word)) return word;
  return stripSuffix(step1(word));
}
