// The package as a user installs it: `npm pack` of the built tree, unpacked into a scratch
// project's node_modules. Tests run offline, so the package's dependencies are linked from this
// repository's node_modules instead of downloaded; what is checked is what the tarball holds
// (files, exports, types) and how a user's own file imports it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = process.cwd();

/** A scratch project with the packed `wield` installed; `dir` is its root. */
export function packedProject(prefix = 'wield-packed-'): { dir: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8' });
  const [{ filename }] = JSON.parse(out) as { filename: string }[];
  const target = path.join(dir, 'node_modules', 'wield');
  mkdirSync(target, { recursive: true });
  execFileSync('tar', ['-xzf', path.join(dir, filename), '-C', target, '--strip-components=1']);
  const modules = path.join(ROOT, 'node_modules');
  for (const name of readdirSync(modules)) {
    if (name === 'wield' || name.startsWith('.')) continue;
    if (name.startsWith('@')) {
      mkdirSync(path.join(dir, 'node_modules', name), { recursive: true });
      for (const scoped of readdirSync(path.join(modules, name))) {
        symlinkSync(path.join(modules, name, scoped), path.join(dir, 'node_modules', name, scoped));
      }
    } else symlinkSync(path.join(modules, name), path.join(dir, 'node_modules', name));
  }
  // As `npm init -y` leaves it: no "type", so a user's ESM file is an .mjs file.
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ name: 'scratch', version: '1.0.0', private: true }, null, 2)}\n`);
  return { dir };
}
