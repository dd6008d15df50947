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

/**
 * Values that are credentials whatever the variable is called: a URL with a password in it
 * (`postgres://app:hunter2@db/app`), and token formats with a fixed prefix (GitHub `ghp_`/`github_pat_`,
 * GitLab `glpat-`, Slack `xox?-`, AWS `AKIA`/`ASIA`, OpenAI/Anthropic `sk-`, npm `npm_`, Stripe `sk_live_`, JWTs).
 */
const SECRET_VALUE =
  /^[a-z][a-z0-9+.-]*:\/\/[^/@\s:]*:[^/@\s]+@|(?:^|[^A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\w{20,}|glpat-[\w-]{20,}|xox[abpors]-[\w-]{10,}|A[KS]IA[A-Z0-9]{16}|sk-[\w-]{20,}|npm_[A-Za-z0-9]{30,}|[rs]k_live_\w{16,}|eyJ[\w-]{10,}\.eyJ[\w-]{10,}\.)/i;

export const isSecretValue = (value: string): boolean => SECRET_VALUE.test(value);

/** The names of the variables a word expands (`$A`, `${B:-x}`, `${#C}`). */
export function variablesIn(text: string): string[] {
  return [...text.matchAll(VARIABLE)].map((m) => m[1]);
}
