// The library example in README.md runs as written, against the built package (dist/).
import { describe, expect, it } from 'vitest';
import { readFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

describe('README', () => {
  it('library example runs as written and prints what the text says', () => {
    expect(existsSync('dist/index.js'), 'build first: npm run build').toBe(true);
    const readme = readFileSync('README.md', 'utf8');
    const section = readme.slice(readme.indexOf('## As a library'));
    const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
    expect(code).toBeDefined();
    // `import ... from 'wield'` resolves to this package through its own exports (self-reference).
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', code as string], { encoding: 'utf8', cwd: process.cwd() });
    const lines = out.trim().split('\n');
    expect(lines[0]).toMatch(/^a ok: \{/);
    expect(out).toMatch(/"city": "Oslo"/);
    expect(out).toMatch(/^b ok: \{[\s\S]*"city": "Lima",\s*"days": 3/m);
    expect(out).toMatch(/repaired/);
    expect(out).toMatch(/^c error: No tool named "get_wether"\. Did you mean "get_weather"\?/m);
  });

  it('names the same two commands that CI runs', () => {
    const readme = readFileSync('README.md', 'utf8');
    const ci = readFileSync('.ci/run', 'utf8');
    const testCommand = /^(npm ci && npm run build && npm test)\s+#/m.exec(readme)?.[1];
    expect(testCommand).toBeDefined();
    expect(ci).toContain(testCommand as string);
  });
});
