// Files git's config points at (the core.hooksPath folder, include.path files, programs config
// keys run), which the file-writing tools may not write either: a hook planted there runs on the
// next commit, outside every sandbox. The list is the sandbox's (git-config-targets.ts, asked of
// git), so Bash and Write/Edit/apply_patch protect the same paths.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { PermissionCheck, SessionState, TouchedPath } from '../../runtime/tool/types.js';
import { gitConfigTargets } from '../sandbox/git-config-targets.js';
import type { ProtectedEntry } from '../sandbox/git-dirs.js';
import { userHome } from './home.js';
import { guardPath } from './paths.js';
import { kindOf } from '../sandbox/fs-probe.js';

const isUnder = (child: string, parent: string): boolean => child === parent || child.startsWith(`${parent}/`);

/** Pure: why writing `absPath` is refused because git's config makes git run or read it. */
export function gitTargetWriteReason(absPath: string, targets: readonly ProtectedEntry[]): string | undefined {
  const hit = targets.find((t) => (t.kind === 'dir' ? isUnder(absPath, t.path) : absPath === t.path));
  if (hit === undefined) return undefined;
  const what = hit.kind === 'dir' ? `inside ${hit.path}, a folder` : 'a file';
  return `${absPath} is ${what} git's config makes git run or read (core.hooksPath, include.path or a program a config key names), which tools may not write; edit it yourself if needed`;
}

/** The repository tops a write may concern: the roots and the repository holding each path. */
function repositories(files: readonly string[], roots: readonly string[]): string[] {
  const tops = new Set(roots);
  for (const file of files) {
    const root = roots.find((r) => isUnder(file, r));
    for (let dir = path.dirname(file); root !== undefined && isUnder(dir, root); dir = path.dirname(dir)) {
      if (kindOf(path.join(dir, '.git')) !== undefined) {
        tops.add(dir);
        break;
      }
    }
  }
  return [...tops];
}

const real = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};

/** The tool check of the file-writing tools: refuses paths git's config points at. */
export async function gitTargetsCheck(touched: readonly TouchedPath[], session: SessionState): Promise<PermissionCheck> {
  const writes = touched
    .filter((t) => t.access === 'write')
    .map((t) => guardPath(t.path, { cwd: session.cwd, roots: session.roots }).resolved);
  if (writes.length === 0) return { behavior: 'passthrough' };
  const home = userHome();
  const listed = await Promise.all(repositories(writes, session.roots).map((top) => gitConfigTargets(top, home)));
  const targets = listed.flat().flatMap((t) => [t, { ...t, path: real(t.path) }]);
  for (const file of writes) {
    const reason = gitTargetWriteReason(file, targets);
    if (reason) return { behavior: 'deny', message: reason };
  }
  return { behavior: 'passthrough' };
}
