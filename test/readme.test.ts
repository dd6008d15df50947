// README's library example runs as pasted: saved as example.mjs in a fresh project that installed
// the packed package, as the README says to.
import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { packedProject } from './support/packed.js';

let dir: string;
// Packing the built tree takes a few seconds, more on a loaded machine: once for the file.
beforeAll(() => {
  expect(existsSync('dist/index.js'), 'build first: npm run build').toBe(true);
  ({ dir } = packedProject());
}, 120_000);

describe('README', () => {
  it('library example runs as pasted into example.mjs of a fresh project, and prints what the text says', () => {
    const readme = readFileSync('README.md', 'utf8');
    const section = readme.slice(readme.indexOf('## As a library'));
    expect(section).toMatch(/npm i wield zod/);
    expect(section).toMatch(/example\.mjs/);
    const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
    expect(code).toBeDefined();
    writeFileSync(path.join(dir, 'example.mjs'), code as string);
    const out = execFileSync(process.execPath, ['example.mjs'], { encoding: 'utf8', cwd: dir });
    const lines = out.trim().split('\n');
    expect(lines[0]).toMatch(/^a ok: \{/);
    expect(out).toMatch(/"city": "Oslo"/);
    expect(out).toMatch(/^b ok: \{[\s\S]*"city": "Lima",\s*"days": 3/m);
    expect(out).toMatch(/repaired/);
    expect(out).toMatch(/^c error: No tool named "get_wether"\. Did you mean "get_weather"\?/m);
  });

  it("the coding tier's Bash flags are right from the first call, with no set-up step", () => {
    const script = [
      "import { bashTool } from 'wield/coding';",
      'const bash = bashTool();',
      "console.log(bash.isReadOnly({ command: 'ls' }), bash.isDestructive({ command: 'rm -rf x' }), bash.isDestructive({ command: 'ls' }));",
    ].join('\n');
    writeFileSync(path.join(dir, 'flags.mjs'), script);
    expect(execFileSync(process.execPath, ['flags.mjs'], { encoding: 'utf8', cwd: dir }).trim()).toBe('true true false');
  });

  it('names the same two commands that CI runs', () => {
    const readme = readFileSync('README.md', 'utf8');
    const ci = readFileSync('.ci/run', 'utf8');
    const testCommand = /^(npm ci && npm run build && npm test)\s+#/m.exec(readme)?.[1];
    expect(testCommand).toBeDefined();
    expect(ci).toContain(testCommand as string);
  });
});
