// The decision engine. In order: hard blocks in code (path guard, protected files) → deny rules
// → plan mode → ask rules → the tool's own check → allow rules (for a shell line: each part by a
// rule or by being read-only, see compound.ts) → mode → ask the user. Deny and ask rules also see
// each shell command's other forms (bash/rule-forms.ts), and a line the analyser could not read
// asks when such rules exist, after the tool's own deny. A hook may
// then tighten the result; it may loosen only the final "ask the user". decideCall is pure given
// its guard; createPolicy binds it to settings, the mode and the session's "always" rules.
import { statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AnyTool } from '../../runtime/tool/types.js';
import type { PermissionDecision, PermissionMode, PermissionPolicy, PermissionRequest } from '../../runtime/pipeline/types.js';
import { isShellTool, tighteningForms, type TighteningForms } from './part-verdicts.js';
import { guardPath, type GuardOptions, type PathVerdict } from './paths.js';
import { protectedWriteReason } from './protected.js';
import { parseRule, toolNameMatches, type Rule } from './rules.js';
import {
  allowingRules,
  describeRule,
  firstMatch,
  mayDo,
  partText,
  partsOf,
  suggestionsFor,
  uncoveredText,
  type ResolvedPath,
} from './rule-match.js';
import type { WieldSettings } from '../settings/load.js';

/** Reasons are clauses that callers join (`…; dontAsk mode denies…`) and end with a period: a tool's message loses its own. */
const clause = (message: string | undefined): string | undefined => message?.replace(/[.\s]+$/, '');

export interface RuleSet {
  allow: readonly Rule[];
  ask: readonly Rule[];
  deny: readonly Rule[];
}

export interface SandboxOption {
  autoAllowBash: boolean;
  available: boolean;
}

export interface DecisionContext {
  rules: RuleSet;
  mode: PermissionMode;
  roots: readonly string[];
  home: string;
  /** Folder suggested path rules are written relative to (the project folder). */
  base: string;
  sandbox?: SandboxOption;
  /** The path guard; injectable so decisions can be tested without a file system. */
  guard?: (path: string, opts: GuardOptions) => PathVerdict;
}

/**
 * A line the analyser could not read (not parsed, nested too deeply) may run anything, so no deny
 * or ask rule on the tool's content can be ruled out: it asks. With no "always allow": allow
 * rules are weighed after this, so one would never apply.
 */
function uncheckedAsk(tool: AnyTool, tightening: TighteningForms, rules: RuleSet): PermissionDecision | undefined {
  const { opaque } = tightening;
  const rule = opaque && [...rules.deny, ...rules.ask].find((r) => r.content !== undefined && toolNameMatches(r.tool, tool));
  if (!opaque || !rule) return undefined;
  return {
    behavior: 'ask',
    reason: `\`${opaque.command}\` cannot be checked against the deny and ask rules (such as ${describeRule(rule)}): ${opaque.why}`,
    suggestions: [],
  };
}

/**
 * A read outside the workspace asks the person whatever the mode or the allow rules (as a hard
 * block did before: no rule or mode lets it through unasked); approving lets the folder in.
 */
function outsideReadAsk(outside: readonly string[], roots: readonly string[]): Base {
  const first = outside[0];
  const folder = isDirectory(first) ? first : path.dirname(first);
  return {
    decision: {
      behavior: 'ask',
      reason: `reading ${JSON.stringify(first)} is outside the workspace (${roots.join(', ')}); approving adds ${folder} to this session's workspace (or add it to permissions.additionalDirectories in settings)`,
      addDirectory: folder,
      suggestions: [],
    },
    finalAsk: false,
  };
}

function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

interface Base {
  decision: PermissionDecision;
  /** Only the final "ask the user" may be turned into an allow by a hook or the sandbox. */
  finalAsk: boolean;
}

function decideBase(req: PermissionRequest, ctx: DecisionContext): Base {
  const { tool, input, toolCheck } = req;
  const cwd = req.session.cwd;
  const guard = ctx.guard ?? guardPath;
  const deny = (reason: string, rule?: Rule): Base => ({ decision: { behavior: 'deny', reason, rule: rule?.text }, finalAsk: false });

  const paths: ResolvedPath[] = [];
  /** Plain reads outside the roots: a person may let their folder in; nothing else may. */
  const outside: string[] = [];
  for (const touched of tool.touchedPaths?.(input, { cwd }) ?? []) {
    // The session folder holds wield's own spill files, which results tell the model to Read.
    const roots = touched.access === 'read' ? [...ctx.roots, req.session.dir] : [...ctx.roots];
    const verdict = guard(touched.path, { cwd, roots });
    if (!verdict.inside && touched.access === 'read' && verdict.outsideRoots) {
      outside.push(verdict.resolved);
      paths.push({ ...touched, resolved: verdict.resolved });
      continue;
    }
    if (!verdict.inside)
      return deny(`${touched.access === 'write' ? 'writing' : 'reading'} ${JSON.stringify(touched.path)} is refused: ${verdict.reason}`);
    if (touched.access === 'write') {
      // Both the real target and the path as written: a symlinked `.git` is still `.git`.
      const guarded = protectedWriteReason(verdict.resolved) ?? protectedWriteReason(path.resolve(cwd, touched.path));
      if (guarded) return deny(guarded);
    }
    paths.push({ ...touched, resolved: verdict.resolved });
  }
  const partList = tool.ruleParts?.(input);
  const home = ctx.home;
  // Deny and ask rules also see the commands' other forms (`/bin/rm x`, `sudo rm x` as `rm x`).
  const tightening = tighteningForms(tool, input, req.session);
  const targets = [...(partList ?? []), ...tightening.forms.map((command) => ({ ...input, command }))];

  const denied = firstMatch(ctx.rules.deny, tool, input, targets, paths, home);
  if (denied) return deny(`denied by rule ${describeRule(denied)}`, denied);
  if (outside.length > 0) return outsideReadAsk(outside, ctx.roots);

  const readOnly = tool.isReadOnly(input);
  if (ctx.mode === 'plan' && !readOnly) {
    return deny(
      `plan mode: only read-only tools run while planning, and ${tool.name} with this input may change things; present the plan and wait for the user to leave plan mode`,
    );
  }

  const asked = firstMatch(ctx.rules.ask, tool, input, targets, paths, home);
  if (asked)
    return { decision: { behavior: 'ask', reason: `rule ${describeRule(asked)} requires approval`, rule: asked.text }, finalAsk: false };

  if (toolCheck.behavior === 'deny') return deny(clause(toolCheck.message) ?? `${tool.name} refused this input`);
  const unchecked = uncheckedAsk(tool, tightening, ctx.rules);
  if (unchecked) return { decision: unchecked, finalAsk: false };
  const parts = partList && partsOf(ctx.rules.allow, tool, input, partList, req.session, home);
  if (toolCheck.behavior === 'ask') {
    const suggestions = suggestionsFor(tool, input, parts, paths, ctx.base, toolCheck.suggestions);
    return {
      decision: { behavior: 'ask', reason: clause(toolCheck.message) ?? `${tool.name} asks for approval of this input`, suggestions },
      finalAsk: false,
    };
  }
  // Outside every containment: only a rule the person wrote for this very command lets it run.
  if (isShellTool(tool) && input.sandbox === false) return unsandboxed(tool, input, parts, paths, ctx, toolCheck.suggestions);
  if (toolCheck.behavior === 'allow')
    return {
      decision: { behavior: 'allow', reason: clause(toolCheck.message) ?? `${tool.name} allows this input`, allowedBy: 'verdict' },
      finalAsk: false,
    };

  const allowed = allowingRules(ctx.rules.allow, tool, input, parts, paths, home);
  if (allowed) {
    const text = allowed.map((r) => r.text).join(', ');
    // Allowed by covering the parts (not by a rule for the whole tool): name those that needed none.
    const free = parts && allowed === parts.cover.rules ? parts.cover.free.map((i) => partText(parts.list[i])) : [];
    const rest = free.length ? `; ${free.join(', ')} ${free.length > 1 ? 'are' : 'is'} read-only` : '';
    // Where the command would run without the rule anyway (the mode, the sandbox's auto-allow), the
    // rule changed nothing: it runs as that would have run it.
    const allowedBy = ctx.mode === 'bypassPermissions' || sandboxAutoAllows(ctx) ? 'mode' : 'rule';
    return {
      decision: { behavior: 'allow', reason: `allowed by rule ${allowed.map(describeRule).join(', ')}${rest}`, rule: text, allowedBy },
      finalAsk: false,
    };
  }

  if (readOnly)
    return { decision: { behavior: 'allow', reason: `${tool.name} is read-only with this input`, allowedBy: 'verdict' }, finalAsk: false };
  if (ctx.mode === 'bypassPermissions')
    return { decision: { behavior: 'allow', reason: 'bypassPermissions mode', allowedBy: 'mode' }, finalAsk: false };
  const writes = paths.filter((p) => p.access === 'write');
  if (ctx.mode === 'acceptEdits' && !parts && writes.length > 0) {
    return { decision: { behavior: 'allow', reason: 'acceptEdits mode: a file edit inside the workspace' }, finalAsk: false };
  }
  const suggestions = suggestionsFor(tool, input, parts, paths, ctx.base, toolCheck.suggestions);
  // Name the parts that are neither allowed nor read-only, and why: "it" would also blame parts a
  // rule allows, and the person or model reading this sees no other explanation.
  const what = parts && parts.cover.uncovered.length > 0 ? uncoveredText(parts) : 'it';
  return {
    decision: {
      behavior: 'ask',
      reason: `${tool.name} ${writes.length ? 'writes files' : mayDo(parts)} and no rule allows ${what} (${ctx.mode} mode)`,
      suggestions,
    },
    finalAsk: true,
  };
}

/**
 * A shell call with `"sandbox": false` asks in every mode (no verdict, mode, hook or auto-allow
 * lets it through) unless allow rules name it: a rule for the tool, or rules that cover every
 * part (a read-only part needs one too, since nothing contains it either).
 */
function unsandboxed(
  tool: AnyTool,
  input: Record<string, unknown>,
  parts: ReturnType<typeof partsOf> | undefined,
  paths: ResolvedPath[],
  ctx: DecisionContext,
  toolSuggestions: string[] | undefined,
): Base {
  const allowed = allowingRules(ctx.rules.allow, tool, input, parts, paths, ctx.home);
  const byVerdict = parts !== undefined && allowed === parts.cover.rules && parts.cover.free.length > 0;
  if (allowed && !byVerdict) {
    const text = allowed.map((r) => r.text).join(', ');
    return {
      decision: {
        behavior: 'allow',
        reason: `allowed outside the sandbox by rule ${allowed.map(describeRule).join(', ')}`,
        rule: text,
        allowedBy: 'rule',
      },
      finalAsk: false,
    };
  }
  return {
    decision: {
      behavior: 'ask',
      reason: `${tool.name} asks to run outside the sandbox, which needs approval in every mode unless an allow rule names the command`,
      suggestions: suggestionsFor(tool, input, parts, paths, ctx.base, toolSuggestions),
    },
    finalAsk: false,
  };
}

const sandboxAutoAllows = (ctx: DecisionContext): boolean => ctx.sandbox?.autoAllowBash === true && ctx.sandbox.available;

/**
 * A deny rule without content (`WebFetch`, `mcp__server`, `mcp__server__tool`) refuses every call
 * of the tool, so it is not offered at all: the registry's pool leaves it out.
 */
export function deniedWhole(deny: readonly Rule[]): (tool: AnyTool) => boolean {
  const whole = deny.filter((rule) => rule.content === undefined);
  return (tool) => whole.some((rule) => toolNameMatches(rule.tool, tool));
}

/** The whole decision for one call: base decision, hook tightening, sandbox, dontAsk. */
export function decideCall(req: PermissionRequest, ctx: DecisionContext): PermissionDecision {
  const base = decideBase(req, ctx);
  let decision = base.decision;
  const hook = req.hookDecision;
  const hookReason = (what: string) => (hook?.reason ? `${what}: ${hook.reason}` : what);
  if (hook?.behavior === 'deny' && decision.behavior !== 'deny') {
    decision = { behavior: 'deny', reason: hookReason('blocked by a PreToolUse hook') };
  } else if (hook?.behavior === 'ask' && decision.behavior === 'allow') {
    decision = { behavior: 'ask', reason: hookReason('a PreToolUse hook asks for approval'), suggestions: [] };
  } else if (hook?.behavior === 'allow' && base.finalAsk) {
    return { behavior: 'allow', reason: hookReason('allowed by a PreToolUse hook'), allowedBy: 'mode' };
  }
  if (decision.behavior === 'ask' && base.finalAsk && hook?.behavior !== 'ask' && sandboxAutoAllows(ctx)) {
    if (isShellTool(req.tool) && req.input.sandbox !== false) {
      decision = { behavior: 'allow', reason: 'runs in the sandbox', allowedBy: 'mode' };
    }
  }
  if (decision.behavior === 'ask' && ctx.mode === 'dontAsk') {
    decision = { ...decision, behavior: 'deny', reason: `${decision.reason}; dontAsk mode denies what would ask` };
  }
  return decision;
}

export interface PolicyOptions {
  settings: WieldSettings;
  /** Defaults to settings.permissions.defaultMode. */
  mode?: PermissionMode;
  cwd: string;
  /** Workspace roots (cwd + additional directories). */
  roots: string[];
  home?: string;
  /** "Always for this session" rules to start with. */
  sessionRules?: string[];
  sandbox?: SandboxOption;
}

export interface WieldPolicy extends PermissionPolicy {
  decide(request: PermissionRequest): PermissionDecision;
  /** Adds "always for this session" allow rules; throws on a malformed rule. */
  addSessionRules(rules: readonly string[]): void;
  /** The "always for this session" rules, oldest first. */
  sessionRules(): readonly Rule[];
  /** Takes one out; false when it is not there. */
  removeSessionRule(text: string): boolean;
  setMode(mode: PermissionMode): void;
  readonly mode: PermissionMode;
}

export function createPolicy(opts: PolicyOptions): WieldPolicy {
  const home = opts.home ?? os.homedir();
  const sessionAllow: Rule[] = [];
  let mode = opts.mode ?? opts.settings.permissions.defaultMode;
  const addSessionRules = (texts: readonly string[]) => {
    for (const text of texts) {
      const parsed = parseRule(text);
      if (!parsed.ok) throw new Error(parsed.message);
      if (!sessionAllow.some((r) => r.text === text)) sessionAllow.push({ ...parsed.rule, text, source: 'this session', base: opts.cwd });
    }
  };
  addSessionRules(opts.sessionRules ?? []);
  const { allow, ask, deny } = opts.settings.permissions;
  return {
    get mode() {
      return mode;
    },
    setMode(next) {
      mode = next;
    },
    addSessionRules,
    sessionRules: () => [...sessionAllow],
    removeSessionRule(text) {
      const at = sessionAllow.findIndex((rule) => rule.text === text);
      if (at >= 0) sessionAllow.splice(at, 1);
      return at >= 0;
    },
    decide(request) {
      return decideCall(request, {
        rules: { allow: [...allow, ...sessionAllow], ask, deny },
        mode,
        roots: opts.roots,
        home,
        base: opts.cwd,
        sandbox: opts.sandbox,
      });
    },
  };
}
