// The package as a user installs it: `npm pack` of the built tree, unpacked into a scratch
// project's node_modules. Tests run offline, so what `npm install wield` would bring is linked
// from this repository's node_modules instead of downloaded — its dependencies (and theirs), the
// peers a user adds for the parts they use, and Node's types — and nothing else: a devDependency
// the bundle forgot to include fails here as it would for the user.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = process.cwd();

/** The package folders a user's install holds beside wield: production dependencies, transitively, and the peers. */
export function installedWithWield(): string[] {
  const listed = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(`${path.sep}node_modules${path.sep}`));
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { peerDependencies: Record<string, string> };
  const peers = Object.keys(manifest.peerDependencies).map((name) => path.join(ROOT, 'node_modules', name));
  // A nested copy sits inside its parent's folder, which is linked whole.
  const top = [...new Set([...listed, ...peers])].filter(
    (dir) => path.relative(path.join(ROOT, 'node_modules'), dir).split('node_modules').length === 1,
  );
  return top.sort();
}

/** A scratch project with the packed `wield` installed; `dir` is its root. */
export function packedProject(prefix = 'wield-packed-'): { dir: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8' });
  const [{ filename }] = JSON.parse(out) as { filename: string }[];
  const target = path.join(dir, 'node_modules', 'wield');
  mkdirSync(target, { recursive: true });
  execFileSync('tar', ['-xzf', path.join(dir, filename), '-C', target, '--strip-components=1']);
  const modules = path.join(ROOT, 'node_modules');
  for (const source of [...installedWithWield(), path.join(modules, '@types', 'node')]) {
    const link = path.join(dir, 'node_modules', path.relative(modules, source));
    mkdirSync(path.dirname(link), { recursive: true });
    symlinkSync(source, link);
  }
  // As `npm init -y` leaves it: no "type", so a user's ESM file is an .mjs file.
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ name: 'scratch', version: '1.0.0', private: true }, null, 2)}\n`);
  return { dir };
}
