// Whether commands nobody approved run contained here, and what people are told where they do
// not: then the shell analyser holds alone, so only its audited core runs without asking.
import { access, constants } from 'node:fs/promises';
import path from 'node:path';
import type { SandboxSettings } from '../sandbox/settings.js';
import { sandboxStatus } from '../sandbox/status.js';

export interface Containment {
  contained: boolean;
  /** Why not, in words a person can act on (or what contains them). */
  reason: string;
  /** The one command that installs containment here, when installing is what is missing. */
  install?: string;
}

/** Package managers and their command that installs bubblewrap, most common first. */
const INSTALLERS: readonly (readonly [string, string])[] = [
  ['apt-get', 'sudo apt-get install bubblewrap'],
  ['dnf', 'sudo dnf install bubblewrap'],
  ['yum', 'sudo yum install bubblewrap'],
  ['pacman', 'sudo pacman -S bubblewrap'],
  ['zypper', 'sudo zypper install bubblewrap'],
  ['apk', 'sudo apk add bubblewrap'],
];

/** Pure: the install command for a platform where `has(program)` says which package managers exist. */
export function installCommand(platform: NodeJS.Platform, has: (program: string) => boolean): string | undefined {
  if (platform !== 'linux') return undefined;
  return INSTALLERS.find(([manager]) => has(manager))?.[1];
}

/** Whether commands that run without asking are contained (bubblewrap works and sandbox.contain is not false). */
export async function containment(settings: SandboxSettings, env: NodeJS.ProcessEnv = process.env): Promise<Containment> {
  if (settings.contain === false) return { contained: false, reason: 'sandbox.contain is false in the settings' };
  const status = await sandboxStatus(settings);
  if (status.available) return { contained: true, reason: status.reason };
  // Installing helps only where bwrap is missing; a kernel without user namespaces needs more.
  if (status.bwrapPath !== undefined) return { contained: false, reason: status.reason };
  const found = await onPath(
    INSTALLERS.map(([manager]) => manager),
    env,
  );
  const install = installCommand(process.platform, (program) => found.has(program));
  return { contained: false, reason: status.reason, ...(install ? { install } : {}) };
}

async function onPath(programs: readonly string[], env: NodeJS.ProcessEnv): Promise<Set<string>> {
  const dirs = (env.PATH ?? '').split(path.delimiter).filter((d) => d !== '');
  const found = await Promise.all(
    programs.map(async (program) => {
      for (const dir of dirs) {
        const ok = await access(path.join(dir, program), constants.X_OK).then(
          () => true,
          () => false,
        );
        if (ok) return program;
      }
      return undefined;
    }),
  );
  return new Set(found.filter((p): p is string => p !== undefined));
}

/** What the first run in a folder and `wield doctor` say where nothing is contained. */
export function uncontainedNotice(c: Containment): string {
  const fix = c.install ? ` Install containment with \`${c.install}\`.` : '';
  return (
    `no sandbox here (${c.reason.replace(/\.\s*$/, '')}). Nothing is contained here: only a small audited core (cat, ls, grep, ` +
    'wc, head and similar coreutils; not git, npm, awk, sed or find) runs without asking, once the analyser resolves the paths ' +
    `and globs it names on disk; everything else asks, and what you approve runs with your full access.${fix}`
  );
}
