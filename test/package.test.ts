// The package as a user installs it: every subpath of `exports` imports from a fresh project, and
// their declaration files type-check with `skipLibCheck: false` (a user's strictest setting).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { installedWithWield, packedProject } from './support/packed.js';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  exports: Record<string, unknown>;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};
const subpaths = Object.keys(pkg.exports)
  .filter((key) => key !== './package.json')
  .map((key) => (key === '.' ? 'wield' : `wield/${key.slice(2)}`));

let dir: string;
beforeAll(() => {
  expect(existsSync('dist/index.js'), 'build first: npm run build').toBe(true);
  ({ dir } = packedProject('wield-package-'));
}, 120_000);

describe('the packed package', () => {
  it('imports every subpath from a fresh project', () => {
    expect(subpaths).toEqual(expect.arrayContaining(['wield', 'wield/coding', 'wield/mcp', 'wield/search']));
    const script = subpaths.map(
      (name) => `console.log(${JSON.stringify(name)}, Object.keys(await import(${JSON.stringify(name)})).length);`,
    );
    writeFileSync(path.join(dir, 'imports.mjs'), script.join('\n'));
    const out = execFileSync(process.execPath, ['imports.mjs'], { cwd: dir, encoding: 'utf8' });
    for (const name of subpaths) expect(out).toMatch(new RegExp(`^${name} [1-9]\\d*$`, 'm'));
  }, 60_000);

  it('imports at run time only what it depends on: packages bundled from devDependencies are inside it', () => {
    // The scratch project links this repository's devDependencies too, so a missing one would not
    // show as an import error there: read the bare specifiers of the packed JavaScript instead.
    const files = execFileSync('find', [path.join(dir, 'node_modules', 'wield', 'dist'), '-name', '*.js'], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
    const imported = new Set<string>();
    for (const file of files) {
      const code = readFileSync(file, 'utf8');
      const specifiers = [
        ...code.matchAll(/^\s*(?:import|export)\b[^\n]*?\bfrom\s*["']([^"']+)["']/gm),
        ...code.matchAll(/^\s*import\s*["']([^"']+)["']/gm),
        // Not one opening a template: code generators bundled in (ajv-formats, in the MCP SDK) write
        // `require("…")` into the code they generate; that is text, not an import of the package.
        ...code.matchAll(/(?<!`)\b(?:import|require)\(\s*["']([^"']+)["']\s*\)/g),
      ];
      for (const match of specifiers) {
        const specifier = match[1];
        if (specifier.startsWith('node:') || specifier.startsWith('.') || specifier.startsWith('/')) continue;
        imported.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]);
      }
    }
    const allowed = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies), ...builtinModules]);
    expect([...imported].filter((name) => !allowed.has(name))).toEqual([]);
    // The scan sees the externals (Ajv is one) and not what is bundled (the terminal UI, the MCP SDK).
    expect(imported.has('ajv')).toBe(true);
    expect(imported.has('@mariozechner/pi-tui')).toBe(false);
    expect(imported.has('@modelcontextprotocol/client')).toBe(false);
    const licences = readFileSync(path.join(dir, 'node_modules', 'wield', 'dist', 'THIRD-PARTY-LICENSES.md'), 'utf8');
    for (const bundled of ['@mariozechner/pi-tui', '@modelcontextprotocol/client', '@anthropic-ai/sdk', 'web-tree-sitter']) {
      expect(licences).toContain(`## ${bundled} `);
    }
  });

  it('installs in at most 25 MB with its dependencies (`npm i wield zod`, no optional peers)', () => {
    const peers = new Set(Object.keys(pkg.peerDependencies).map((name) => path.join('node_modules', name)));
    const folders = [
      path.join(dir, 'node_modules', 'wield'),
      ...installedWithWield().filter((folder) => !peers.has(path.relative(process.cwd(), folder))),
    ];
    const bytes = execFileSync('du', ['-sbcL', ...folders], { encoding: 'utf8' });
    const total = Number(/^(\d+)\s+total$/m.exec(bytes)?.[1]);
    expect(total).toBeGreaterThan(5_000_000); // the count itself worked
    expect(total).toBeLessThanOrEqual(25 * 1024 * 1024);
  });

  it('its types check with skipLibCheck: false, and no error is in its own declarations', () => {
    const imports = subpaths.map((name, i) => `import * as m${i} from ${JSON.stringify(name)};`);
    writeFileSync(
      path.join(dir, 'use.mts'),
      `${imports.join('\n')}\nexport const all = [${subpaths.map((_, i) => `m${i}`).join(', ')}];\n`,
    );
    const options = { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, skipLibCheck: false, noEmit: true };
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { ...options, types: ['node'] }, files: ['use.mts'] }),
    );
    let output = '';
    try {
      execFileSync(process.execPath, [path.resolve('node_modules/typescript/bin/tsc'), '-p', '.'], { cwd: dir, encoding: 'utf8' });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    const errors = output.split('\n').filter((line) => /error TS\d+/.test(line));
    expect(errors.filter((line) => line.includes('node_modules/wield/'))).toEqual([]);
    // The AI SDK's own declarations import 'json-schema', whose types it does not depend on: a user
    // of `ai` sees this with or without wield (upstream, in @ai-sdk/provider). Nothing else may fail.
    const upstream = (line: string) => /@ai-sdk\/provider\/dist\/index\.d\.ts.*TS7016.*'json-schema'/.test(line);
    expect(errors.filter((line) => !upstream(line))).toEqual([]);
  }, 240_000);
});
