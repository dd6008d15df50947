// Settings layers, read in order: ~/.wield/settings.json, .wield/settings.json,
// .wield/settings.local.json, command-line flags, and merged by mergeSettings (merge.ts). A
// project's own files can only tighten until the project is trusted: their allow rules, hooks,
// MCP servers, extra folders and anything else that loosens need the user's recorded trust (or
// an explicit flag for one-shot runs).
import os from 'node:os';
import path from 'node:path';
import { existsSync, realpathSync } from 'node:fs';
import type { PermissionMode } from '../../runtime/pipeline/types.js';
import { parseRule } from '../permissions/rules.js';
import { HOOK_EVENTS } from '../../runtime/hooks/types.js';
import { settingsFileSchema, type SettingsFile } from './schema.js';
import { setAsideUnused } from './carry-over.js';
import { userHome } from '../permissions/home.js';
import { mergeSettings, type SettingsLayer, type WieldSettings } from './merge.js';
import { formatKey, formatLocatedError, readJsonFile, updateJsonFile, type LocatedError } from './json-file.js';
import { projectsFile, readProjectRecord, updateProjectRecord, type ProjectRecord } from './projects.js';
import { ignoredByDistrust, ignoredLines } from './trust.js';

export type SettingsError = LocatedError;
export { emptySettings, mergeSettings, type SettingsLayer, type WieldSettings } from './merge.js';
export { formatLocatedError as formatSettingsError };

export interface SettingsFlags {
  allow?: string[];
  deny?: string[];
  ask?: string[];
  permissionMode?: PermissionMode;
}

/** `saved`: the rules of "always" answers wield keeps for this folder in ~/.wield/projects.json. */
export type LayerKind = 'user' | 'saved' | 'project' | 'local' | 'flags';

export interface SettingsSource {
  kind: LayerKind;
  /** The file, or `flags`. */
  file: string;
  /** `all`, or `restrictions` when an untrusted project file only contributed deny/ask rules. */
  applied: 'all' | 'restrictions';
}

export interface LoadedSettings {
  settings: WieldSettings;
  /** The layers that existed and were applied, in merge order. */
  sources: SettingsSource[];
  trusted: boolean;
  /** What wield remembers for this folder (~/.wield/projects.json). */
  project: ProjectRecord;
  /** Untrusted only: what the project's files would change, one line per file (`.mcp.json: MCP servers`). */
  ignored: string[];
  /** Keys wield does not use (brought from Claude Code), per file: `~/.wield/settings.json: statusLine`. */
  unused: string[];
  /** Malformed files: callers must show these and stop, never run with a half-read setup. */
  errors?: SettingsError[];
}

export interface SettingsPaths {
  user: string;
  project: string;
  local: string;
}

export function settingsPaths(cwd: string, home: string = os.homedir()): SettingsPaths {
  return {
    user: path.join(home, '.wield', 'settings.json'),
    project: path.join(cwd, '.wield', 'settings.json'),
    local: path.join(cwd, '.wield', 'settings.local.json'),
  };
}

function canonical(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

/** Validates one file; errors carry the file, line, column and key. */
interface Layer {
  data?: SettingsFile;
  errors: SettingsError[];
  unused?: string[];
}

async function readLayer(file: string, kind: LayerKind): Promise<Layer> {
  const read = await readJsonFile(file);
  if (read.kind === 'missing') return { errors: [] };
  if (read.kind === 'error') return { errors: [read.error] };
  const { data, unused } = setAsideUnused(read.value);
  const result = settingsFileSchema.safeParse(data);
  const errors: SettingsError[] = [];
  if (!result.success) {
    for (const issue of result.error.issues) {
      const base = issue.path.filter((s): s is string | number => typeof s !== 'symbol');
      const keys = issue.code === 'unrecognized_keys' ? issue.keys.map((k) => [...base, k]) : [base];
      for (const p of keys) {
        const message =
          issue.code !== 'unrecognized_keys'
            ? issue.message
            : base.join('.') === 'hooks'
              ? `unknown hook event; use one of ${HOOK_EVENTS.join(', ')}`
              : 'unknown key; check its spelling and place against the settings documentation';
        errors.push({ file, ...read.locate(p), key: formatKey(p) || '(top level)', message });
      }
    }
    return { errors, unused };
  }
  if (kind !== 'user' && result.data.trustedProjects !== undefined) {
    errors.push({
      file,
      ...read.locate(['trustedProjects']),
      key: 'trustedProjects',
      message: 'only the user settings (~/.wield/settings.json) may record trusted projects; remove it here',
    });
  }
  return { data: result.data, errors, unused };
}

export interface LoadSettingsOptions {
  cwd: string;
  /** The folder `~` means in settings (injectable for tests); defaults to the user's home. */
  home?: string;
  /** The folder holding wield's own `.wield/` (WIELD_HOME); defaults to `home`. */
  wieldHome?: string;
  flags?: SettingsFlags;
  /** Treat the project as trusted for this run (the explicit flag for `-p`). */
  trustProject?: boolean;
}

export async function loadSettings(opts: LoadSettingsOptions): Promise<LoadedSettings> {
  const home = opts.home ?? userHome();
  const cwd = path.resolve(opts.cwd);
  const files = settingsPaths(cwd, opts.wieldHome ?? home);
  const savedFile = projectsFile(opts.wieldHome ?? home);
  // Run from the home folder, the project file is the user file: read it once, as the user's.
  const [user, project, local, remembered] = await Promise.all([
    readLayer(files.user, 'user'),
    files.project === files.user ? Promise.resolve<Layer>({ errors: [] }) : readLayer(files.project, 'project'),
    readLayer(files.local, 'local'),
    readProjectRecord(savedFile, cwd),
  ]);
  const record = remembered.ok ? remembered.record : {};
  const saved: Layer = record.allow?.length ? { data: { permissions: { allow: record.allow } }, errors: [] } : { errors: [] };
  const recorded = (user.data?.trustedProjects ?? []).map(canonical);
  const trusted = opts.trustProject === true || recorded.includes(canonical(cwd));
  const sources: SettingsSource[] = [];
  const layers: SettingsLayer[] = [];
  const read: [LayerKind, string, Layer, string][] = [
    ['user', files.user, user, home],
    ['saved', savedFile, saved, cwd],
    ['project', files.project, project, cwd],
    ['local', files.local, local, cwd],
  ];
  for (const [kind, file, layer, base] of read) {
    if (!layer.data) continue;
    const full = kind === 'user' || kind === 'saved' || trusted;
    layers.push({ data: layer.data, source: file, base, trusted: full });
    sources.push({ kind, file, applied: full ? 'all' : 'restrictions' });
  }
  const flags = opts.flags ?? {};
  const flagErrors: SettingsError[] = [];
  for (const [list, texts] of [
    ['allow', flags.allow],
    ['ask', flags.ask],
    ['deny', flags.deny],
  ] as const) {
    (texts ?? []).forEach((text, n) => {
      const parsed = parseRule(text);
      if (!parsed.ok) flagErrors.push({ file: 'command line', line: 1, column: 1, key: `--${list}[${n}]`, message: parsed.message });
    });
  }
  layers.push({
    data: { permissions: { allow: flags.allow, ask: flags.ask, deny: flags.deny, defaultMode: flags.permissionMode } },
    source: 'flags',
    base: cwd,
    trusted: true,
  });
  if (flags.allow?.length || flags.deny?.length || flags.ask?.length || flags.permissionMode) {
    sources.push({ kind: 'flags', file: 'flags', applied: 'all' });
  }
  const settings = mergeSettings(layers, home);
  const errors = [...user.errors, ...project.errors, ...local.errors, ...(remembered.ok ? [] : [remembered.error]), ...flagErrors];
  const ignored = trusted
    ? []
    : ignoredLines([
        { name: path.join('.wield', 'settings.json'), items: project.data ? ignoredByDistrust(project.data) : [] },
        { name: path.join('.wield', 'settings.local.json'), items: local.data ? ignoredByDistrust(local.data) : [] },
        { name: '.mcp.json', items: existsSync(path.join(cwd, '.mcp.json')) ? ['MCP servers'] : [] },
      ]);
  const unused = read.flatMap(([, file, layer]) => (layer.unused?.length ? [`${file}: ${layer.unused.join(', ')}`] : []));
  const result = { settings, sources, trusted, project: record, ignored, unused };
  return errors.length ? { ...result, errors } : result;
}

/**
 * Records in the user settings that the person trusts this project folder (`home`: the folder
 * holding wield's `.wield/`), and forgets an earlier "do not trust".
 */
export async function trustProject(cwd: string, home: string = os.homedir()): Promise<void> {
  const dir = canonical(cwd);
  await updateJsonFile(settingsPaths(cwd, home).user, (data) => {
    const list = Array.isArray(data.trustedProjects) ? data.trustedProjects.filter((x): x is string => typeof x === 'string') : [];
    return list.includes(dir) ? data : { ...data, trustedProjects: [...list, dir] };
  });
  await forgetDecline(cwd, home);
}

async function forgetDecline(cwd: string, home: string): Promise<void> {
  const file = projectsFile(home);
  if (!existsSync(file)) return;
  await updateProjectRecord(file, cwd, ({ declined: _, ...rest }) => rest);
}

/** Takes the folder off the trusted list and records "do not trust", so the question is not asked again. */
export async function distrustProject(cwd: string, home: string = os.homedir()): Promise<void> {
  const dir = canonical(cwd);
  const file = settingsPaths(cwd, home).user;
  if (existsSync(file))
    await updateJsonFile(file, (data) => {
      if (!Array.isArray(data.trustedProjects)) return data;
      return { ...data, trustedProjects: data.trustedProjects.filter((x) => typeof x !== 'string' || canonical(x) !== dir) };
    });
  await updateProjectRecord(projectsFile(home), cwd, (record) => ({ ...record, declined: true }));
}
