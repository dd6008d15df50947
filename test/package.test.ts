// The package as a user installs it: every subpath of `exports` imports from a fresh project, and
// their declaration files type-check with `skipLibCheck: false` (a user's strictest setting).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { packedProject } from './support/packed.js';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { exports: Record<string, unknown> };
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
