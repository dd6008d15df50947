// Deny and ask rules through the engine with the real Bash tool: they see each command's other
// forms (base name, unwrapped, scripts, global options removed); allow rules never do.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBashAnalyzer } from '../../../src/coding/bash/index.js';
import { decideBash } from './decide-bash.js';

beforeAll(async () => {
  await loadBashAnalyzer();
});

const DENY_RM = { deny: ['Bash(rm *)'] };

describe('deny and ask rules see through wrappers, paths, quoting and global options', () => {
  it('the reported bypasses under bypassPermissions are denied', async () => {
    for (const command of [
      '/bin/rm x',
      '\\rm x',
      '"rm" x',
      'nohup rm x',
      'exec rm x',
      'sudo rm x',
      'ls | xargs rm',
      'FOO=1 rm x',
      'rm x 2>/dev/null',
      'env -C /tmp rm x',
    ]) {
      expect(await decideBash(command, DENY_RM, 'bypassPermissions'), command).toMatchObject({ behavior: 'deny', rule: 'Bash(rm *)' });
    }
  });

  it('and with `Bash(*)` allowed', async () => {
    for (const command of ['eval rm x', 'builtin rm x', 'find . -exec rm {} \\;', 'ls | xargs -I{} rm {}', "bash -O extglob -c 'rm x'"]) {
      expect(await decideBash(command, { allow: ['Bash(*)'], ...DENY_RM }), command).toMatchObject({ behavior: 'deny' });
    }
  });

  it('an ask rule for `git push *` holds through git global options', async () => {
    const rules = { allow: ['Bash(git *)'], ask: ['Bash(git push *)'] };
    for (const command of [
      'git -C . push origin main',
      'git --no-pager push origin main',
      'git -c x.y=z push',
      'git push origin main > /dev/null',
    ]) {
      expect(await decideBash(command, rules), command).toMatchObject({ behavior: 'ask', rule: 'Bash(git push *)' });
    }
    expect(await decideBash('git -C . log', rules)).toMatchObject({ behavior: 'allow' });
  });

  it('allow rules get no such widening', async () => {
    const allow = { allow: ['Bash(rm *)'] };
    for (const command of ['/tmp/evil/rm x', './rm x', 'sudo rm x', 'nohup rm x', 'eval rm x', '"rm" x']) {
      expect((await decideBash(command, allow)).behavior, command).toBe('ask');
    }
    expect(await decideBash('rm x', allow)).toMatchObject({ behavior: 'allow' });
  });

  it('a line the analyser cannot read asks when deny or ask rules exist, and offers no rule that could never apply', async () => {
    for (const command of ['rm x; (', '{v}>f rm x', `${'eval '.repeat(8)}rm x`]) {
      const d = await decideBash(command, { allow: ['Bash(*)'], ...DENY_RM }, 'bypassPermissions');
      expect(d, command).toMatchObject({ behavior: 'ask', suggestions: [] });
      expect(d.reason, command).toContain('cannot be checked against the deny and ask rules');
      // Without such rules nothing changes.
      expect((await decideBash(command, {}, 'bypassPermissions')).behavior, command).toBe('allow');
    }
  });

  // Wrappers around the denied command, each written as a shell user would: argv wrappers, and
  // script wrappers that quote what follows.
  const ARGV = [
    'nohup',
    'sudo',
    'sudo -u root --',
    'exec',
    'builtin',
    'command',
    'env FOO=1',
    'env -i',
    'nice -n 5',
    'timeout 5',
    'timeout -s KILL 9',
    'time',
    'stdbuf -o0',
    'setsid',
    'xargs',
    'xargs -0 -I{}',
    'doas',
    'ionice -c 3',
  ];
  const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
  const wrap = (kind: string, inner: string): string => {
    if (kind === 'bash -c') return `bash -c ${quote(inner)}`;
    if (kind === 'sh -ec') return `sh -ec ${quote(inner)}`;
    // eval joins its words and parses them again: quoted, as one word, the inner line survives.
    if (kind === 'eval') return `eval ${quote(inner)}`;
    if (kind === 'find') return `find . -exec ${inner} \\;`;
    return `${kind} ${inner}`;
  };
  // The analyser follows four levels of nested scripts; deeper ones ask (tested above).
  const SCRIPTS = ['bash -c', 'sh -ec', 'eval'];
  const chainArb = fc
    .array(fc.constantFrom(...ARGV, ...SCRIPTS, 'find'), { maxLength: 6 })
    .filter((c) => c.filter((k) => SCRIPTS.includes(k)).length <= 4);
  const targetArb = fc.constantFrom('rm x', '/bin/rm -rf x', '\\rm x', '"rm" -f x', "'rm' x");

  it('property: any chain of wrappers around a denied command is still denied', async () => {
    await fc.assert(
      fc.asyncProperty(chainArb, targetArb, fc.boolean(), async (chain, target, redirect) => {
        const command = chain.reduceRight((inner, kind) => wrap(kind, inner), target) + (redirect ? ' 2>/dev/null' : '');
        expect((await decideBash(command, DENY_RM, 'bypassPermissions')).behavior, command).toBe('deny');
      }),
      { numRuns: 300 },
    );
  });

  it('property: the same chains are never allowed by `Bash(rm *)` unless the line is just `rm …`', async () => {
    await fc.assert(
      fc.asyncProperty(chainArb, targetArb, async (chain, target) => {
        const command = chain.reduceRight((inner, kind) => wrap(kind, inner), target);
        const allowed = (await decideBash(command, { allow: ['Bash(rm *)'] })).behavior === 'allow';
        expect(allowed, command).toBe(command.startsWith('rm '));
      }),
      { numRuns: 300 },
    );
  });
});
