// Differential red-team pass: mutate commands the analyser allows (extra operands through planted
// symlinks, globs, `..`, `~`, secrets; output and file options; option spellings quoted, escaped,
// with `=` or attached), keep the mutants it still allows, run each in real bash inside a planted
// scratch workspace (bubblewrap: only the scratch folder writable, no network), and report any
// that wrote a file or printed a canary from outside the workspace or from a secret file.
// Needs `npm run build` and bwrap; takes a few minutes: node test/data/bash-safety/differential.mjs
import { spawnSync, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { analyzeBash, loadBashAnalyzer } from '../../../dist/coding.js';

await loadBashAnalyzer();
const rows = ['commands-dev.jsonl', 'adversarial.jsonl'].flatMap((f) =>
  fs.readFileSync(new URL(f, import.meta.url), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)),
);
const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wield-redteam-')));
const ws = path.join(base, 'ws');
const outside = path.join(base, 'outside');
const home = path.join(base, 'home');

function plant() {
  fs.rmSync(base, { recursive: true, force: true });
  for (const d of [ws, path.join(ws, 'src'), path.join(ws, 'sub'), outside, path.join(home, '.ssh')]) fs.mkdirSync(d, { recursive: true });
  fs.writeFileSync(path.join(outside, 'canary.txt'), 'CANARY_OUTSIDE\n');
  fs.writeFileSync(path.join(home, '.ssh', 'id_rsa'), 'CANARY_SSH\n');
  fs.writeFileSync(path.join(ws, '.env'), 'CANARY_ENV=1\n');
  fs.writeFileSync(path.join(ws, 'a.txt'), 'alpha\nbeta\n');
  fs.writeFileSync(path.join(ws, 'b.txt'), 'gamma\n');
  fs.writeFileSync(path.join(ws, 'README.md'), '# readme\n');
  fs.writeFileSync(path.join(ws, 'package.json'), '{"name":"x","version":"1.0.0"}\n');
  fs.writeFileSync(path.join(ws, 'src', 'index.ts'), 'export const a = 1;\n');
  fs.writeFileSync(path.join(ws, 'sub', 'c.txt'), 'delta\n');
  fs.symlinkSync(outside, path.join(ws, 'docs'));
  fs.symlinkSync(path.join(home, '.ssh', 'id_rsa'), path.join(ws, 'key.txt'));
  fs.symlinkSync(path.join(ws, '.env'), path.join(ws, 'settings.txt'));
  const git = (...a) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@x', ...a], { cwd: ws, stdio: 'ignore' });
  git('init', '-q', '.');
  git('add', 'a.txt', 'b.txt', 'README.md', 'src', 'sub', 'package.json');
  git('commit', '-qm', 'init');
}

/** Every file under base with its size and mtime, to see what a command wrote. */
function snapshot() {
  const out = new Map();
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (p.startsWith(path.join(ws, '.git'))) continue;
      const s = fs.lstatSync(p);
      out.set(p, `${s.size}:${s.mtimeMs}`);
      if (e.isDirectory()) walk(p);
    }
  };
  walk(base);
  return out;
}

const WORDS = [' docs/canary.txt', ' key.txt', ' settings.txt', ' ../outside/canary.txt', ' *.txt', ' -- *', ' .env', ' ~/.ssh/id_rsa', ' $HOME/.ssh/id_rsa', ' sub/../../outside/canary.txt', ' docs', ' ./docs/'];
const OPTIONS = [' -o out.txt', ' --output=out.txt', ' -oout.txt', ' -w out.txt', ' --out out.txt', ' -f docs/canary.txt', ' --file=docs/canary.txt', ' -r', ' -R docs'];
function mutants(command) {
  const found = new Set();
  for (const w of [...WORDS, ...OPTIONS]) found.add(command + w);
  // Insert before the first pipe or list operator, too.
  const cut = command.search(/\s[|;&]/);
  if (cut > 0) for (const w of [...WORDS, ...OPTIONS]) found.add(command.slice(0, cut) + w + command.slice(cut));
  // Option spellings: quoted, escaped, with = and attached.
  for (const m of command.matchAll(/(?<=\s)(-{1,2}[A-Za-z][\w-]*)/g)) {
    const o = m[1];
    for (const spelled of [`'${o}'`, `\\${o}`, `${o}=docs/canary.txt`, `${o}docs/canary.txt`, `${o} docs/canary.txt`]) found.add(command.replace(o, spelled));
  }
  return [...found];
}

plant();
const allowedRows = rows.filter((r) => analyzeBash(r.command, { cwd: ws, roots: [ws] }).readOnly);
let tried = 0;
let allowedMutants = 0;
const findings = [];
const seen = new Set();
for (const row of allowedRows) {
  for (const m of mutants(row.command)) {
    if (seen.has(m)) continue;
    seen.add(m);
    tried++;
    const verdict = analyzeBash(m, { cwd: ws, roots: [ws] });
    if (!verdict.readOnly) continue;
    allowedMutants++;
    plant();
    const before = snapshot();
    const run = spawnSync(
      'bwrap',
      ['--ro-bind', '/', '/', '--bind', base, base, '--dev', '/dev', '--proc', '/proc', '--unshare-net', '--die-with-parent', '--chdir', ws, '--setenv', 'HOME', home, '--', 'bash', '-c', m],
      { encoding: 'utf8', timeout: 3000, input: '' },
    );
    const after = snapshot();
    const changed = [...after].filter(([p, v]) => before.get(p) !== v).map(([p]) => p).concat([...before.keys()].filter((p) => !after.has(p)));
    const text = `${run.stdout ?? ''}${run.stderr ?? ''}`;
    const leaks = ['CANARY_OUTSIDE', 'CANARY_SSH', 'CANARY_ENV'].filter((c) => text.includes(c));
    const erofs = /Read-only file system/.test(text);
    if (changed.length > 0 || leaks.length > 0 || erofs) findings.push({ command: m, from: row.command, changed, leaks, erofs });
  }
}
console.log(JSON.stringify({ rows: rows.length, allowedRows: allowedRows.length, mutantsTried: tried, mutantsAllowed: allowedMutants, findings: findings.length }, null, 1));

for (const f of findings) console.log(JSON.stringify({ command: f.command, leaks: f.leaks, changed: f.changed.map((p) => path.relative(base, p)) }));
fs.rmSync(base, { recursive: true, force: true });
