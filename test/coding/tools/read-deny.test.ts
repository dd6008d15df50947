// The Read-deny predicate (permissions/read-deny.ts) must hide exactly what the engine's
// matchPathRule denies, and the rg exclusion globs (tools/grep-hidden.ts) must be exact paths.
import { describe, expect, it } from 'vitest';
import { matchPathRule } from '../../../src/coding/permissions/rules.js';
import { hiddenNote, readDenyPredicate } from '../../../src/coding/permissions/read-deny.js';
import { exclusionGlobs, literalGlob } from '../../../src/coding/tools/grep-hidden.js';
import { denyRule } from './helpers.js';

const HOME = '/home/u';
const BASE = '/home/u/proj';

describe('readDenyPredicate', () => {
  const patterns = [
    '.env*',
    '*.pem',
    'secrets',
    'secrets/',
    '/secrets/**',
    './config/*.json',
    'config/**/private*',
    'src/**/*.key',
    '//etc/shadow',
    '//home/u/proj/vault',
    '~/.ssh/**',
    '~',
    '//',
    '**',
    '{a,b}.txt',
    '[ab]*.txt',
    '+(x|y).cfg',
    'a/b',
    '/',
    'deep/**/',
    '*',
  ];
  const paths = [
    BASE,
    `${BASE}/.env`,
    `${BASE}/.env.local`,
    `${BASE}/app/.env`,
    `${BASE}/env`,
    `${BASE}/k.pem`,
    `${BASE}/x/y/k.pem`,
    `${BASE}/secrets`,
    `${BASE}/secrets/a.txt`,
    `${BASE}/app/secrets/a.txt`,
    `${BASE}/config/app.json`,
    `${BASE}/config/sub/app.json`,
    `${BASE}/config/a/b/private.txt`,
    `${BASE}/src/k.key`,
    `${BASE}/src/a/b/k.key`,
    '/etc/shadow',
    '/etc/passwd',
    `${BASE}/vault/x`,
    `${HOME}/.ssh/id_rsa`,
    `${HOME}/other`,
    '/tmp/x',
    `${BASE}/a.txt`,
    `${BASE}/bb.txt`,
    `${BASE}/x.cfg`,
    `${BASE}/a/b`,
    `${BASE}/a/b/c`,
    `${BASE}/deep/q`,
    `${BASE}/../proj-evil/.env2`,
    `${BASE}/..weird`,
    '/',
  ];
  it.each(patterns)('hides exactly what matchPathRule matches: Read(%s)', (pattern) => {
    const denied = readDenyPredicate([denyRule(`Read(${pattern})`, BASE)], HOME);
    expect(denied).toBeDefined();
    for (const p of paths) expect([p, denied?.(p)]).toEqual([p, matchPathRule(pattern, p, { base: BASE, home: HOME })]);
  });

  it('reads the home folder as matchPathRule does, even written with a trailing slash', () => {
    const denied = readDenyPredicate([denyRule('Read(~/.ssh)', BASE)], `${HOME}/`);
    for (const p of [`${HOME}/.ssh/id_rsa`, `${HOME}/.sshx`, `${HOME}`]) {
      expect(denied?.(p)).toBe(matchPathRule('~/.ssh', p, { base: BASE, home: `${HOME}/` }));
    }
    expect(denied?.(`${HOME}/.ssh/id_rsa`)).toBe(true);
  });

  it('anchors each rule at its own settings folder and combines every layer', () => {
    const denied = readDenyPredicate([denyRule('Read(notes/**)', HOME), denyRule('Read(/build)', BASE)], HOME);
    expect(denied?.(`${HOME}/notes/a.md`)).toBe(true);
    expect(denied?.(`${BASE}/notes/a.md`)).toBe(false);
    expect(denied?.(`${BASE}/build/x.js`)).toBe(true);
    expect(denied?.(`${BASE}/app/build/x.js`)).toBe(false);
  });

  it('takes only Read path rules: no predicate for whole-tool, Edit or other rules', () => {
    const others = ['Read', 'Edit(.env)', 'Write(secrets/**)', 'Bash(cat .env)', 'WebFetch(domain:x.com)', 'Grep'].map((t) =>
      denyRule(t, BASE),
    );
    expect(readDenyPredicate(others, HOME)).toBeUndefined();
    expect(readDenyPredicate([], HOME)).toBeUndefined();
  });

  it('words the note for one or many', () => {
    expect(hiddenNote(0, 'file')).toBe('');
    expect(hiddenNote(1, 'file')).toBe('\n[1 file hidden by Read deny rules]');
    expect(hiddenNote(2, 'file')).toBe('\n[2 files hidden by Read deny rules]');
    expect(hiddenNote(3, 'entry')).toBe('\n[3 entries hidden by Read deny rules]');
  });
});

describe('exclusionGlobs', () => {
  const denied = readDenyPredicate([denyRule('Read(.env*)', '/ws'), denyRule('Read(/private)', '/ws')], HOME) as (p: string) => boolean;

  it('writes one anchored glob per top-most hidden folder or file', () => {
    const globs = exclusionGlobs(['./.env', './app/.env', './private/a.txt', './private/deep/b.txt', './.env.d/x'], '/ws', denied);
    expect(globs).toEqual(['!/.env', '!/app/.env', '!/private', '!/.env.d']);
  });

  it('escapes glob syntax and skips names that have no exact glob', () => {
    expect(literalGlob('a b/x*y?[1]{2}\\z ')).toBe('a\\ b/x\\*y\\?\\[1\\]\\{2\\}\\\\z\\ ');
    expect(literalGlob('tab\there')).toBeUndefined();
    expect(literalGlob('nbsp\u00a0')).toBeUndefined();
    expect(literalGlob('line\nbreak')).toBeUndefined();
    expect(exclusionGlobs(['./.env\t', './.env x'], '/ws', denied)).toEqual(['!/.env\\ x']);
  });

  it('gives none when they would not fit on a command line', () => {
    const many = Array.from({ length: 5000 }, (_, i) => `./${'d'.repeat(30)}${i}/.env`);
    expect(exclusionGlobs(many, '/ws', denied)).toEqual([]);
  });
});
