// Trust decisions, pure: what an untrusted project's files would change (and so is ignored), when
// to ask the person whether to trust the folder, and which ignored items are news to them.
import type { SettingsFile } from './schema.js';
import type { ProjectRecord } from './projects.js';

/** The keys of a project settings file that apply only once the project is trusted (merge.ts, tighten). */
export function ignoredByDistrust(data: SettingsFile): string[] {
  const items: string[] = [];
  const p = data.permissions ?? {};
  if ((p.allow ?? []).length > 0) items.push('allow rules');
  if (Object.values(data.hooks ?? {}).some((groups) => (groups ?? []).length > 0)) items.push('hooks');
  if (Object.keys(data.mcpServers ?? {}).length > 0) items.push('MCP servers');
  if ((p.additionalDirectories ?? []).length > 0) items.push('extra folders');
  if (p.defaultMode === 'acceptEdits' || p.defaultMode === 'bypassPermissions') items.push(`permission mode ${p.defaultMode}`);
  if (data.context !== undefined) items.push('context settings');
  if (data.model !== undefined) items.push('model');
  if (data.strictTools !== undefined) items.push('strict tool schemas');
  if (Object.keys(data.env ?? {}).length > 0) items.push('environment variables');
  const sb = data.sandbox ?? {};
  const loosens =
    sb.enabled === false ||
    sb.contain === false ||
    sb.autoAllowBash !== undefined ||
    sb.bwrapPath !== undefined ||
    (sb.writableRoots ?? []).length > 0 ||
    sb.network !== undefined ||
    (sb.denyRead ?? []).some((entry) => entry.trim().startsWith('!'));
  if (loosens) items.push('sandbox exemptions');
  return items;
}

export interface UntrustedFile {
  /** As shown to the person, e.g. `.wield/settings.json`. */
  name: string;
  items: string[];
}

/** `.wield/settings.json: allow rules, hooks`, one per file that has anything ignored. */
export function ignoredLines(files: readonly UntrustedFile[]): string[] {
  return files.filter((file) => file.items.length > 0).map((file) => `${file.name}: ${file.items.join(', ')}`);
}

/** The first interactive run asks when the folder is not trusted, something would be ignored, and no earlier answer was "no". */
export function shouldAskTrust(trusted: boolean, ignored: readonly string[], record: ProjectRecord): boolean {
  return !trusted && record.declined !== true && ignored.length > 0;
}

/** The ignored items the person has not been told of yet (each is told once per folder). */
export function untold(ignored: readonly string[], record: ProjectRecord): string[] {
  const told = new Set(record.noticed ?? []);
  return ignored.filter((item) => !told.has(item));
}

export function trustQuestion(dir: string, ignored: readonly string[]): string {
  return [
    `? Trust this folder, ${dir}?`,
    '  Its files would change what wield does here, and apply only once you trust it (until then only their deny and ask rules do):',
    ...ignored.map((item) => `    ${item}`),
    '  Only trust a folder whose files you (or people you trust) wrote: hooks and MCP servers run programs.',
    '  [y] trust it · [n] do not (asked once; `wield trust` or `wield trust --revoke` changes the answer)',
  ].join('\n');
}

export type TrustReply = 'yes' | 'no' | 'invalid';

export function parseTrustReply(line: string): TrustReply {
  const text = line.trim().toLowerCase();
  if (text === 'y' || text === 'yes') return 'yes';
  if (text === 'n' || text === 'no') return 'no';
  return 'invalid';
}
