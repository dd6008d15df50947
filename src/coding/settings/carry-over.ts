// Settings files people bring from Claude Code: keys wield has no use for (statusLine,
// includeCoAuthoredBy, outputStyle, hook events it does not fire…) are set aside and named once,
// never a reason to refuse to start. What stays strict is what could silently weaken a setup: a
// misspelt wield key (`permisions`, `mcpServer`) and unknown keys inside wield's own objects.
import { isRecord } from '../../runtime/util/record.js';

/** The top-level keys wield reads (schema.ts). */
export const WIELD_KEYS = [
  '$schema',
  'permissions',
  'hooks',
  'mcpServers',
  'sandbox',
  'toolSearch',
  'codeMode',
  'context',
  'trustedProjects',
  'model',
  'modelStream',
  'strictTools',
  'env',
] as const;

/** Keys Claude Code documents inside objects wield also reads; set aside with the rest. */
const NESTED_CLAUDE_KEYS: Record<string, readonly string[]> = {
  permissions: ['disableBypassPermissionsMode', 'disableAutoMode'],
  sandbox: ['autoAllowBashIfSandboxed', 'excludedCommands', 'allowUnsandboxedCommands', 'ignoreViolations', 'enableWeakerNestedSandbox'],
};

/** Claude Code's hook events that wield does not fire (its own are HOOK_EVENTS). */
const CLAUDE_ONLY_HOOK_EVENTS: readonly string[] = [
  'Notification',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'SessionStart',
  'SessionEnd',
  'PostToolUseFailure',
];

export interface CarriedOver {
  /** The file without the keys set aside: what the schema checks. */
  data: unknown;
  /** Dotted keys set aside (`statusLine`, `hooks.Notification`). */
  unused: string[];
}

/** Splits one parsed settings file into what wield reads and the keys it does not use. */
export function setAsideUnused(raw: unknown): CarriedOver {
  if (!isRecord(raw)) return { data: raw, unused: [] };
  const data: Record<string, unknown> = {};
  const unused: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if ((WIELD_KEYS as readonly string[]).includes(key) || nearWieldKey(key)) data[key] = value;
    else unused.push(key);
  }
  for (const [parent, keys] of Object.entries(NESTED_CLAUDE_KEYS)) {
    const inner = data[parent];
    if (!isRecord(inner)) continue;
    const kept = Object.fromEntries(Object.entries(inner).filter(([key]) => !keys.includes(key)));
    for (const key of Object.keys(inner)) if (keys.includes(key)) unused.push(`${parent}.${key}`);
    data[parent] = kept;
  }
  // Hook events wield never fires: their hooks would not run. Any other unknown event stays an error.
  const hooks = data.hooks;
  if (isRecord(hooks)) {
    for (const event of Object.keys(hooks)) if (CLAUDE_ONLY_HOOK_EVENTS.includes(event)) unused.push(`hooks.${event}`);
    data.hooks = Object.fromEntries(Object.entries(hooks).filter(([event]) => !CLAUDE_ONLY_HOOK_EVENTS.includes(event)));
  }
  return { data, unused };
}

/**
 * A key that differs from one of wield's by case or a slip or two (`Permissions`, `mcpServer`,
 * `hook`): left for the schema to refuse, since ignoring it would drop rules the person wrote.
 */
export function nearWieldKey(key: string): boolean {
  const lower = key.toLowerCase();
  return WIELD_KEYS.some((known) => {
    const target = known.toLowerCase();
    return lower === target || distance(lower, target) <= (target.length >= 5 ? 2 : 1);
  });
}

/** Levenshtein distance (short keys only). */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length];
}
