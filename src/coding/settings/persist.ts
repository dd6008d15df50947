// "Always allow" answers, written to the project's .wield/settings.local.json (the personal,
// uncommitted layer), keeping every other key of the file; and taking a saved rule out again.
import { parseRule } from '../permissions/rules.js';
import { settingsPaths } from './load.js';
import { updateJsonFile } from './json-file.js';
import { projectsFile, updateProjectRecord } from './projects.js';

export type RuleList = 'allow' | 'ask' | 'deny';

/** Appends `rule` to permissions.<list> (default allow) unless it is already there. */
export async function persistRule(cwd: string, rule: string, list: RuleList = 'allow'): Promise<void> {
  const parsed = parseRule(rule);
  if (!parsed.ok) throw new Error(parsed.message);
  await updateJsonFile(settingsPaths(cwd).local, (data) => {
    const permissions =
      typeof data.permissions === 'object' && data.permissions !== null && !Array.isArray(data.permissions)
        ? (data.permissions as Record<string, unknown>)
        : {};
    const current = Array.isArray(permissions[list]) ? (permissions[list] as unknown[]) : [];
    if (current.includes(rule)) return data;
    return { ...data, permissions: { ...permissions, [list]: [...current, rule] } };
  });
}

/**
 * Takes `rule` out of permissions.<list> of the settings file it came from (`source`, as rules
 * name it), or out of this folder's saved rules when `source` is ~/.wield/projects.json.
 * Returns false when the file no longer holds it.
 */
export async function removeRule(source: string, list: RuleList, rule: string, cwd: string, wieldHome: string): Promise<boolean> {
  let removed = false;
  if (source === projectsFile(wieldHome)) {
    if (list !== 'allow') return false;
    await updateProjectRecord(source, cwd, (record) => {
      const allow = (record.allow ?? []).filter((text) => text !== rule);
      removed = allow.length !== (record.allow ?? []).length;
      const { allow: _, ...rest } = record;
      return allow.length > 0 ? { ...rest, allow } : rest;
    });
    return removed;
  }
  await updateJsonFile(source, (data) => {
    const permissions =
      typeof data.permissions === 'object' && data.permissions !== null && !Array.isArray(data.permissions)
        ? (data.permissions as Record<string, unknown>)
        : undefined;
    const current = permissions && Array.isArray(permissions[list]) ? (permissions[list] as unknown[]) : undefined;
    if (!permissions || !current?.includes(rule)) return data;
    removed = true;
    return { ...data, permissions: { ...permissions, [list]: current.filter((text) => text !== rule) } };
  });
  return removed;
}
