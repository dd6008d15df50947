// Toolchain version queries (src/coding/bash/programs/tools.ts): read-only only where no version
// manager's project file can make the shim install or run something first.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeBash, loadBashAnalyzer } from '../../../../src/coding/bash/index.js';

const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wield-tools-')));
fs.mkdirSync(path.join(ws, 'src'));
afterAll(() => fs.rmSync(ws, { recursive: true, force: true }));
beforeAll(async () => {
  await loadBashAnalyzer();
});
const verdict = (cmd: string) => analyzeBash(cmd, { cwd: ws, roots: [ws], contained: true });

describe('version managers read project files', () => {
  it('node --version is read-only in a folder without them', () => {
    expect(verdict('node --version').readOnly).toBe(true);
    expect(verdict('python3 --version').readOnly).toBe(true);
  });

  it.each([
    ['.nvmrc', '18.0.0\n'],
    ['.mise.local.toml', '[tools]\nnode = "18"\n'],
    ['mise.local.toml', '[env]\n_.source = "./x.sh"\n'],
    ['.config/mise/config.toml', '[tools]\nnode = "18"\n'],
    ['rtx.toml', '[tools]\nnode = "18"\n'],
  ])('%s makes node --version ask, from the folder or below it', (file, content) => {
    const at = path.join(ws, file);
    fs.mkdirSync(path.dirname(at), { recursive: true });
    fs.writeFileSync(at, content);
    try {
      const name = file.startsWith('.config/mise') ? '.config/mise' : file;
      expect(verdict('node --version')).toMatchObject({ readOnly: false, reason: expect.stringContaining(name) });
      expect(verdict('cd src && npm --version').readOnly).toBe(false);
    } finally {
      fs.rmSync(file.startsWith('.config') ? path.join(ws, '.config') : at, { recursive: true, force: true });
    }
  });

  it.each(['RIPGREP_CONFIG_PATH=./rc rg foo', 'AWKPATH=. awk 1 f', 'MAGIC=./m file a', 'GZIP=-f zcat a.gz', 'UNZIP=-o unzip -l a.zip'])(
    'a command that sets a program config variable asks: %s',
    (cmd) => {
      expect(verdict(cmd).readOnly).toBe(false);
    },
  );
});
