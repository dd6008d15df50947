// "Always allow" answers, written to the project's .wield/settings.local.json (the personal,
// uncommitted layer), keeping every other key of the file.
import { parseRule } from '../permissions/rules.js';
import { settingsPaths } from './load.js';
import { updateJsonFile } from './json-file.js';

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
