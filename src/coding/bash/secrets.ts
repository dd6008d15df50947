// Whether a word names a secret: a credentials file (`~/.ssh/id_rsa`, `.env`, `HEAD:.env`) or a
// variable named like one (`$GITHUB_TOKEN`). The analyser already refuses such words; this tells
// the engine why, so a reason says "reads a secret" and no prefix rule is offered for them.
import { isSecretVariable } from './expansions.js';
import { mayNameSecret } from './paths.js';
import type { Word } from './types.js';

const VARIABLE = /\$\{?[#!]?([A-Za-z_][A-Za-z0-9_]*)/g;

export function namesSecret(word: Word): boolean {
  for (const m of word.text.matchAll(VARIABLE)) if (isSecretVariable(m[1])) return true;
  return mayNameSecret(word.value);
}
