// How settings layers combine, as one pure function. Later layers win for single values, lists add
// up, and deny/ask rules from every layer hold. A layer the user has not trusted (a project's own
// files before the project is trusted) can only tighten: each of its keys is applied as the
// stricter of what is there and what it says, or not at all, so that for any such layer the
// merged settings decide no call more permissively than without it (property-tested).
import type { PermissionMode } from '../../runtime/pipeline/types.js';
import { parseRule, type Rule } from '../permissions/rules.js';
import { expandPath } from '../sandbox/settings.js';
import type { SandboxSettings } from '../sandbox/settings.js';
import type { ContextSettings, HookSettings, SettingsFile } from './schema.js';

export interface WieldSettings {
  permissions: {
    allow: Rule[];
    ask: Rule[];
    deny: Rule[];
    defaultMode: PermissionMode;
    /** Absolute folders added to the workspace roots. */
    additionalDirectories: string[];
  };
  hooks: HookSettings;
  mcpServers: Record<string, Record<string, unknown>>;
  sandbox: SandboxSettings;
  toolSearch: { enabled?: boolean; [key: string]: unknown };
  /** Whether the model is offered RunCode (code mode); undefined: on. */
  codeMode?: boolean;
  /** Window, caching, prices, turn budget, clearing and compaction (trusted layers only). */
  context: ContextSettings;
  /** The default model id (trusted layers only). */
  model?: string;
  /** First-byte and idle timeouts of model replies, in seconds (trusted layers only). */
  modelStream: NonNullable<SettingsFile['modelStream']>;
  /** OpenAI strict mode for function tools (trusted layers only). */
  strictTools?: boolean;
  /** Environment variables to set (trusted layers only). */
  env: Record<string, string>;
}

export interface SettingsLayer {
  data: SettingsFile;
  /** The file (or `flags`), named by rules from it. */
  source: string;
  /** Folder relative rule paths and settings paths resolve from. */
  base: string;
  /** The user's own files and flags are; a project's only once the user trusts it. */
  trusted: boolean;
}

export function emptySettings(): WieldSettings {
  return {
    permissions: { allow: [], ask: [], deny: [], defaultMode: 'default', additionalDirectories: [] },
    hooks: {},
    mcpServers: {},
    sandbox: {},
    toolSearch: {},
    context: {},
    modelStream: {},
    env: {},
  };
}

/**
 * How much each mode lets through without asking, least first: an untrusted layer may only move
 * down this order. `plan` and `dontAsk` are not comparable (plan still asks for an ask rule's
 * read-only call, dontAsk still runs an allow rule's command), so neither replaces the other.
 */
const MODE_LEVEL: Record<PermissionMode, number> = { plan: 0, dontAsk: 0, default: 1, acceptEdits: 2, bypassPermissions: 3 };

/** Merges the layers in order (user, project, local, flags). */
export function mergeSettings(layers: readonly SettingsLayer[], home: string): WieldSettings {
  const settings = emptySettings();
  for (const layer of layers) {
    if (layer.trusted) applyTrusted(settings, layer, home);
    else tighten(settings, layer);
  }
  return settings;
}

function toRules(texts: string[] | undefined, source: string, base: string): Rule[] {
  const out: Rule[] = [];
  for (const text of texts ?? []) {
    const parsed = parseRule(text);
    if (parsed.ok) out.push({ ...parsed.rule, text, source, base });
  }
  return out;
}

function applyTrusted(into: WieldSettings, { data, source, base }: SettingsLayer, home: string): void {
  const p = data.permissions ?? {};
  const perms = into.permissions;
  perms.deny.push(...toRules(p.deny, source, base));
  perms.ask.push(...toRules(p.ask, source, base));
  perms.allow.push(...toRules(p.allow, source, base));
  if (p.defaultMode) perms.defaultMode = p.defaultMode;
  for (const dir of p.additionalDirectories ?? []) perms.additionalDirectories.push(expandPath(dir, base, home));
  for (const [event, groups] of Object.entries(data.hooks ?? {}) as [keyof HookSettings, HookSettings[keyof HookSettings]][]) {
    into.hooks[event] = [...(into.hooks[event] ?? []), ...(groups ?? [])];
  }
  Object.assign(into.mcpServers, data.mcpServers ?? {});
  if (data.toolSearch) into.toolSearch = { ...into.toolSearch, ...data.toolSearch };
  if (data.codeMode !== undefined) into.codeMode = data.codeMode;
  if (data.model) into.model = data.model;
  if (data.modelStream) into.modelStream = { ...into.modelStream, ...data.modelStream };
  if (data.strictTools !== undefined) into.strictTools = data.strictTools;
  Object.assign(into.env, data.env ?? {});
  if (data.context) into.context = { ...into.context, ...data.context, pricing: { ...into.context.pricing, ...data.context.pricing } };
  const sb = data.sandbox ?? {};
  const target = into.sandbox;
  if (sb.enabled !== undefined) target.enabled = sb.enabled;
  if (sb.autoAllowBash !== undefined) target.autoAllowBash = sb.autoAllowBash;
  if (sb.bwrapPath !== undefined) target.bwrapPath = sb.bwrapPath;
  if (sb.contain !== undefined) target.contain = sb.contain;
  if (sb.denyRead) target.denyRead = [...(target.denyRead ?? []), ...sb.denyRead];
  if (sb.writableRoots) target.writableRoots = [...(target.writableRoots ?? []), ...sb.writableRoots.map((d) => expandPath(d, base, home))];
  if (sb.network?.allowedHosts) target.network = { allowedHosts: [...(target.network?.allowedHosts ?? []), ...sb.network.allowedHosts] };
}

/**
 * An untrusted layer's keys, each only where it tightens: its deny and ask rules; a mode that lets
 * less through; turning the sandbox or containment on (never the auto-allow that the user's
 * settings may have waiting for the sandbox: it stays off unless a trusted layer turned the
 * sandbox on); more hidden files but no exemption (`!.env`), which would show one. Everything else
 * (allow rules, hooks, MCP servers, folders, hosts, the bwrap binary) needs trust.
 */
function tighten(into: WieldSettings, { data, source, base }: SettingsLayer): void {
  const p = data.permissions ?? {};
  const perms = into.permissions;
  perms.deny.push(...toRules(p.deny, source, base));
  perms.ask.push(...toRules(p.ask, source, base));
  if (p.defaultMode && MODE_LEVEL[p.defaultMode] < MODE_LEVEL[perms.defaultMode]) perms.defaultMode = p.defaultMode;
  const sb = data.sandbox ?? {};
  const target = into.sandbox;
  if (sb.enabled === true && target.enabled !== true) {
    target.enabled = true;
    if (target.autoAllowBash === true) target.autoAllowBash = false;
  }
  if (sb.contain === true) target.contain = true;
  const hides = (sb.denyRead ?? []).filter((entry) => !entry.trim().startsWith('!'));
  if (hides.length) target.denyRead = [...(target.denyRead ?? []), ...hides];
  // Not a permission: which tools are deferred changes what the model sees first, not what runs.
  if (data.toolSearch) into.toolSearch = { ...into.toolSearch, ...data.toolSearch };
  // Neither is code mode: a program's every call is decided as the same call made directly.
  if (data.codeMode !== undefined) into.codeMode = data.codeMode;
}
