// Which rules speak about a call: a rule against the whole call, its paths or each part of a
// shell line (with what covers each part), and the rules that would allow it. Pure: the engine
// (engine.ts) orders these checks.
import type { AnyTool, TouchedPath } from '../../runtime/tool/types.js';
import type { PermissionRequest } from '../../runtime/pipeline/types.js';
import { coverParts, partsNeedingRules, type Coverage, type PartFacts } from './compound.js';
import { partVerdicts, type PartVerdict } from './part-verdicts.js';
import { matchDomainRule, matchPathRule, toolNameMatches, type Rule } from './rules.js';
import { bashRuleFor, editRuleFor, safeSuggestions } from './suggest.js';

export type Input = Record<string, unknown>;
export interface ResolvedPath extends TouchedPath {
  resolved: string;
}

/** Tools whose rule content is a path pattern; `Edit` and `Write` rules both cover writes. */
const PATH_RULE_TOOLS = new Set(['Read', 'Edit', 'Write']);

export const describeRule = (rule: Rule): string => `\`${rule.text}\` (${rule.source})`;

/** Does a rule speak about this call (or this part of it)? `restrict` widens Read rules to writes. */
export function ruleMatches(
  rule: Rule,
  tool: AnyTool,
  input: Input,
  paths: readonly ResolvedPath[],
  restrict: boolean,
  home: string,
): boolean {
  if (rule.content === undefined) return toolNameMatches(rule.tool, tool);
  if (PATH_RULE_TOOLS.has(rule.tool) && paths.length > 0) {
    // A denied read must not leak through a write tool that shows the old text.
    const relevant = paths.filter((p) => (rule.tool === 'Read' ? restrict || p.access === 'read' : p.access === 'write'));
    return relevant.some((p) => matchPathRule(rule.content as string, p.resolved, { base: rule.base, home }));
  }
  if (!toolNameMatches(rule.tool, tool)) return false;
  if (tool.permissionMatcher) return tool.permissionMatcher(input)(rule.content);
  if (typeof input.url === 'string') return matchDomainRule(rule.content, input.url);
  return false;
}

/** The first rule in `rules` that matches the whole call or any of its parts (or their forms, for deny and ask). */
export function firstMatch(
  rules: readonly Rule[],
  tool: AnyTool,
  input: Input,
  parts: readonly Input[],
  paths: readonly ResolvedPath[],
  home: string,
): Rule | undefined {
  const targets = [input, ...parts];
  return rules.find((rule) => targets.some((t) => ruleMatches(rule, tool, t, t === input ? paths : [], true, home)));
}

/** The parts of a compound call (a shell line) with what covers each: an allow rule, or being read-only. */
export interface Parts {
  list: readonly Input[];
  verdicts: PartVerdict[];
  facts: PartFacts<Rule>[];
  cover: Coverage<Rule>;
}

export function partsOf(
  rules: readonly Rule[],
  tool: AnyTool,
  input: Input,
  list: readonly Input[],
  session: PermissionRequest['session'],
  home: string,
): Parts {
  const verdicts = partVerdicts(tool, input, list, session);
  const facts = list.map((part, i) => ({
    rule: rules.find((r) => r.content !== undefined && ruleMatches(r, tool, part, [], false, home)),
    readOnly: verdicts[i].readOnly,
    inShell: verdicts[i].inShell,
  }));
  return { list, verdicts, facts, cover: coverParts(facts) };
}

export const partText = (part: Input): string => (typeof part.command === 'string' ? `\`${part.command}\`` : JSON.stringify(part));

/** What no rule covers, for the reason: "`touch y` (`touch` writes files) or `cat a` (…)". */
export function uncoveredText(parts: Parts): string {
  const { cover, list, verdicts } = parts;
  const changer = cover.shellChanger === undefined ? '' : partText(list[cover.shellChanger]);
  return cover.uncovered
    .map((i) => {
      const why = verdicts[i].readOnly ? `read-only, but ${changer} runs in the shell and may change what it does` : verdicts[i].reason;
      return why ? `${partText(list[i])} (${why})` : partText(list[i]);
    })
    .join(' or ');
}

/** What the parts no rule allows may do: read a secret (`cat ~/.ssh/id_rsa`), change things, or both. */
export function mayDo(parts: Parts | undefined): string {
  const secret = parts?.cover.uncovered.filter((i) => parts.verdicts[i].secret).length ?? 0;
  if (secret === 0) return 'may change things';
  return secret === parts?.cover.uncovered.length ? 'may read a secret' : 'may change things or read a secret';
}

/** Allow rules that together cover the call: every part for shell-like tools, every path for file tools. */
export function allowingRules(
  rules: readonly Rule[],
  tool: AnyTool,
  input: Input,
  parts: Parts | undefined,
  paths: readonly ResolvedPath[],
  home: string,
): Rule[] | undefined {
  const whole = rules.find((rule) => rule.content === undefined && toolNameMatches(rule.tool, tool));
  if (whole) return [whole];
  if (parts) return parts.cover.allowed ? parts.cover.rules : undefined;
  if (paths.length > 0) {
    const used: Rule[] = [];
    for (const p of paths) {
      const rule = rules.find(
        (r) => r.content !== undefined && PATH_RULE_TOOLS.has(r.tool) && ruleMatches(r, tool, input, [p], false, home),
      );
      if (!rule) return undefined;
      if (!used.includes(rule)) used.push(rule);
    }
    return used;
  }
  const rule = rules.find((r) => r.content !== undefined && ruleMatches(r, tool, input, [], false, home));
  return rule ? [rule] : undefined;
}

/**
 * Rules that would allow the call together: one for each part that needs one (read-only parts need
 * none, unless a part the rules let run changes the shell for them: `cd /etc && cat passwd`).
 */
export function suggestionsFor(
  tool: AnyTool,
  input: Input,
  parts: Parts | undefined,
  paths: readonly ResolvedPath[],
  base: string,
  fromTool?: string[],
): string[] {
  const rules: string[] = [...(fromTool ?? [])];
  if (parts) {
    for (const i of partsNeedingRules(parts.facts)) {
      const command = parts.list[i].command;
      const rule = typeof command === 'string' ? bashRuleFor(command, tool.name, parts.verdicts[i].secret === true) : undefined;
      if (rule) rules.push(rule);
    }
  } else if (paths.some((p) => p.access === 'write')) {
    for (const p of paths) if (p.access === 'write') rules.push(editRuleFor(p.resolved, base));
  } else if (typeof input.url === 'string' && URL.canParse(input.url)) {
    rules.push(`${tool.name}(domain:${new URL(input.url).hostname})`);
  } else {
    rules.push(tool.name);
  }
  // Tools that take content rules never get a blanket suggestion.
  const blanket = parts || tool.permissionMatcher ? [tool.name, ...tool.aliases] : [];
  return safeSuggestions(rules, blanket);
}
