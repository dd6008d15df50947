// `/permissions`: the rules in force, numbered, with the file each came from (or "this session"
// for an `a` answer), and which of them `/permissions remove N` can take out (any from a settings
// file or this session; flags last only for this run). Pure.
import type { Rule } from '../coding/permissions/rules.js';
import type { RuleList } from '../coding/settings/persist.js';

export interface ListedRule {
  list: RuleList;
  text: string;
  source: string;
}

/** The settings' rules, deny first, then the session's own allow rules. */
export function listedRules(
  permissions: { allow: readonly Rule[]; ask: readonly Rule[]; deny: readonly Rule[] },
  sessionAllow: readonly Rule[] = [],
): ListedRule[] {
  const out: ListedRule[] = [];
  for (const list of ['deny', 'ask', 'allow'] as const) {
    for (const rule of permissions[list]) out.push({ list, text: rule.text, source: rule.source });
  }
  for (const rule of sessionAllow) out.push({ list: 'allow', text: rule.text, source: SESSION_SOURCE });
  return out;
}

/** Where an `a` (always, this session) answer's rule lives. */
export const SESSION_SOURCE = 'this session';

export function formatRules(rules: readonly ListedRule[]): string {
  if (rules.length === 0) return 'no permission rules: read-only tools run, others ask (settings permissions.allow/ask/deny add rules)';
  const width = Math.max(0, ...rules.map((rule) => rule.text.length));
  const lines = rules.map((rule, n) => `  ${String(n + 1).padStart(2)}. ${rule.list.padEnd(5)} ${rule.text.padEnd(width)}  ${rule.source}`);
  return ['Rules in force (deny first; `/permissions remove N` takes rule N out of its file, or out of this session):', ...lines].join(
    '\n',
  );
}

export type RemoveRequest = { ok: true; rule: ListedRule } | { ok: false; message: string };

/** `remove N` against the listed rules. */
export function readRemove(args: string, rules: readonly ListedRule[]): RemoveRequest | undefined {
  const match = /^(?:remove|rm)\s+(\d+)$/.exec(args.trim());
  if (!match) return args.trim() === '' ? undefined : { ok: false, message: 'usage: /permissions, or /permissions remove N' };
  const rule = rules[Number(match[1]) - 1];
  if (!rule) return { ok: false, message: `no rule ${match[1]}; /permissions lists 1–${rules.length}` };
  if (rule.source === 'flags') return { ok: false, message: `${rule.text} comes from a command-line flag: it lasts for this run only` };
  return { ok: true, rule };
}
