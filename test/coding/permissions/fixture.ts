// The on-disk layout the symlink corpora expect: <tmp>/WORKSPACE beside <tmp>/outside/secret.txt.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Builds the layout, runs fn with the temp folder and the workspace root, then removes it all. */
export function withWorkspaceLayout<T>(id: string, fn: (t: string, root: string) => T): T {
  const t = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `guard-${id}-`)));
  try {
    const root = path.join(t, 'WORKSPACE');
    fs.mkdirSync(root);
    fs.mkdirSync(path.join(t, 'outside'));
    fs.writeFileSync(path.join(t, 'outside', 'secret.txt'), 'secret');
    return fn(t, root);
  } finally {
    fs.rmSync(t, { recursive: true, force: true });
  }
}
