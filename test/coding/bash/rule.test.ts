import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchBashRule } from '../../../src/coding/bash/index.js';

describe('matchBashRule', () => {
  it.each([
    ['ls *', 'ls', true],
    ['ls *', 'ls -la', true],
    ['ls *', 'lsof', false],
    ['ls *', 'ls  -la   src', true],
    ['git log *', 'git log --oneline', true],
    ['git log *', 'git logx', false],
    ['git log *', 'git status', false],
    ['npm run test', 'npm run test', true],
    ['npm run test', 'npm run test:unit', false],
    ['npm run test', '  npm   run test ', true],
    ['npm run:*', 'npm run build', true],
    ['npm run:*', 'npm run', true],
    ['npm run:*', 'npm runner', false],
    ['git * --oneline', 'git log --oneline', true],
    ['git * --oneline', 'git log --stat', false],
    ['ls *', 'ls > ~/.bashrc', false],
    ['ls *', 'ls; rm -rf x', false],
    ['ls *', 'ls | sh', false],
    ['ls *', 'ls && rm x', false],
    ['ls *', 'ls\nrm x', false],
    ['ls *', 'ls "a > b"', true],
    ['echo *', "echo 'a;b'", true],
    ['echo *', 'echo $(date)', true],
    ['ls > /dev/null', 'ls > /dev/null', true],
    ['echo "a  b"', 'echo "a b"', false],
    ['', 'ls', false],
  ])('%j vs %j → %s', (pattern, command, expected) => {
    expect(matchBashRule(pattern, command)).toBe(expected);
  });

  const word = fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,8}$/);
  it('a `prefix *` rule matches the prefix followed by any plain words, and never a longer first word', () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 3 }), fc.array(word, { maxLength: 4 }), word, (prefix, rest, glued) => {
        const p = prefix.join(' ');
        expect(matchBashRule(`${p} *`, [p, ...rest].join(' '))).toBe(true);
        expect(matchBashRule(`${p} *`, `${p}${glued}`)).toBe(false);
      }),
    );
  });

  it('`*` never swallows an unquoted operator or redirection', () => {
    const op = fc.constantFrom(';', '&&', '||', '|', '>', '>>', '<', '&', '\n');
    fc.assert(
      fc.property(word, fc.array(word, { maxLength: 3 }), op, word, (cmd, args, o, tail) => {
        expect(matchBashRule(`${cmd} *`, `${[cmd, ...args].join(' ')} ${o} ${tail}`)).toBe(false);
      }),
    );
  });

  it('an exact pattern matches only itself (modulo blanks)', () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 4 }), fc.array(word, { minLength: 1, maxLength: 4 }), (a, b) => {
        expect(matchBashRule(a.join(' '), b.join('  '))).toBe(a.join(' ') === b.join(' '));
      }),
    );
  });
});
