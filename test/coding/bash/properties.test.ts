import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeBash, loadBashAnalyzer } from '../../../src/coding/bash/index.js';

const opts = { cwd: '/ws/p', roots: ['/ws/p'], contained: true };
const BASES = [
  'ls -la',
  'cat a.txt',
  'git log --oneline',
  'grep -n foo src',
  "sed -n '1,5p' a.txt",
  'head -n 3 a.txt',
  'wc -l a.txt',
  'find . -name x',
  'rg foo',
  'sort a.txt',
  "awk '{print $1}' a.txt",
  'git status',
  'diff a b',
];
const WRITERS = ['rm -rf x', 'touch x', 'curl example.com', 'sh x.sh', 'git push', 'tee out', 'python3 -c 1', 'foo'];

beforeAll(async () => {
  await loadBashAnalyzer();
});

describe('analyzeBash properties', () => {
  it('the base commands are read-only', () => {
    for (const b of BASES) expect(analyzeBash(b, opts).readOnly).toBe(true);
  });

  it('chaining any non-read-only command makes the whole not read-only', () => {
    const sep = fc.constantFrom('; ', ' && ', ' || ', ' | ', '\n', ' & ', ' |& ');
    fc.assert(
      fc.property(fc.constantFrom(...BASES), sep, fc.constantFrom(...WRITERS), fc.boolean(), (base, s, w, writerFirst) => {
        const cmd = writerFirst ? `${w}${s}${base}` : `${base}${s}${w}`;
        expect(analyzeBash(cmd, opts).readOnly).toBe(false);
      }),
    );
  });

  it('a writing redirection, a pipe into a shell, or a substituted writer is never read-only', () => {
    const suffix = fc.constantFrom(' > f', ' >> f', ' &> f', ' >| f', ' 2> f', ' | sh', ' | bash -s', ' > >(sh)');
    fc.assert(
      fc.property(fc.constantFrom(...BASES), suffix, (base, sfx) => {
        expect(analyzeBash(`${base}${sfx}`, opts).readOnly).toBe(false);
      }),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...BASES),
        fc.constantFrom(...WRITERS),
        fc.constantFrom('$(%)', '`%`', '"$(%)"', '<(%)'),
        (base, w, form) => {
          expect(analyzeBash(`${base} ${form.replace('%', w)}`, opts).readOnly).toBe(false);
        },
      ),
    );
  });

  it('an unknown option is never read-only', () => {
    const opt = fc.stringMatching(/^--zz[a-z]{1,8}$/);
    fc.assert(
      fc.property(fc.constantFrom(...BASES), opt, (base, o) => {
        expect(analyzeBash(`${base} ${o}`, opts).readOnly).toBe(false);
      }),
    );
  });

  it('never throws and always explains itself, whatever the input', () => {
    const shellish = fc
      .array(
        fc.constantFrom(
          'ls',
          ' ',
          '-',
          '$',
          '(',
          ')',
          '{',
          '}',
          '"',
          "'",
          '`',
          '\\',
          '\n',
          '|',
          ';',
          '>',
          '<',
          '&',
          '*',
          '~',
          '=',
          'a',
          '#',
          '$((',
          '<<',
          'EOF',
          '\r',
          '\t',
        ),
        { maxLength: 30 },
      )
      .map((a) => a.join(''));
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 60 }), shellish), (cmd) => {
        const a = analyzeBash(cmd, opts);
        expect(typeof a.readOnly).toBe('boolean');
        expect(a.reason.length).toBeGreaterThan(0);
        expect(Array.isArray(a.commands)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('a path outside the roots is never read-only', () => {
    const outside = fc.constantFrom('/etc/passwd', '../x', '~/x', '/ws/p-evil/x', 'a/../../x', '/ws/x');
    fc.assert(
      fc.property(fc.constantFrom('cat', 'head -n 2', 'wc -l', 'ls', 'grep foo', 'sort'), outside, (prog, p) => {
        expect(analyzeBash(`${prog} ${p}`, opts).readOnly).toBe(false);
      }),
    );
  });
});
