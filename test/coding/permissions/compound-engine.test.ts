// Compound Bash lines through the decision engine with the real Bash tool and analyser: read-only
// parts need no rule, deny and ask rules on any part still decide, shell-state changes and
// failures outside any part (redirects on `{ …; }`, `[[ … ]]`) never let a line through.
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadBashAnalyzer } from '../../../src/coding/bash/index.js';
import { formatRule } from '../../../src/coding/permissions/rules.js';
import type { PermissionDecision } from '../../../src/runtime/pipeline/types.js';
import { loadCorpus } from '../bash/corpus.js';
import { decideBash as decide, type Rules } from './decide-bash.js';

beforeAll(async () => {
  await loadBashAnalyzer();
});

describe('compound Bash lines', () => {
  it('read-only parts need no rule (the reported examples)', async () => {
    for (const command of ['ls && rm x', 'git status && rm x', 'cat a | rm x']) {
      const d = await decide(command, { allow: ['Bash(rm *)'] });
      expect(d, command).toMatchObject({ behavior: 'allow', rule: 'Bash(rm *)' });
      expect(d.reason).toMatch(/is read-only$/);
    }
    expect(await decide('git status; touch made.txt', { allow: ['Bash(touch *)'] })).toMatchObject({ behavior: 'allow' });
    expect(await decide('ls && rm x', { allow: ['Bash(ls *)', 'Bash(rm *)'] })).toMatchObject({
      behavior: 'allow',
      rule: 'Bash(ls *), Bash(rm *)',
    });
  });

  it('names the part that is not allowed, and suggests rules only for such parts', async () => {
    const d = await decide('ls && rm x && touch y', { allow: ['Bash(rm *)'] });
    expect(d.behavior).toBe('ask');
    expect(d.reason).toContain('no rule allows `touch y` (`touch` writes files)');
    expect(d.reason).not.toContain('`rm');
    expect(d.suggestions).toEqual(['Bash(touch y)']);
    expect((await decide('ls && rm x')).suggestions).toEqual(['Bash(rm x)']);
    const two = await decide('rm a && ls && touch b && mkdir c', { allow: ['Bash(mkdir *)'] });
    expect(two.suggestions).toEqual(['Bash(rm a)', 'Bash(touch b)']);
    expect(two.reason).toContain('no rule allows `rm a` (`rm` deletes files) or `touch b` (`touch` writes files)');
    expect((await decide('npm install left-pad')).reason).toBe(
      'Bash may change things and no rule allows `npm install left-pad` (`npm install` is not a read-only npm command) (default mode)',
    );
  });

  it('deny and ask rules on a read-only part still decide', async () => {
    expect(await decide('ls && rm x', { allow: ['Bash(rm *)'], deny: ['Bash(ls *)'] })).toMatchObject({
      behavior: 'deny',
      rule: 'Bash(ls *)',
    });
    expect(await decide('git status && rm x', { allow: ['Bash(rm *)'], ask: ['Bash(git status *)'] })).toMatchObject({
      behavior: 'ask',
      rule: 'Bash(git status *)',
    });
  });

  it('a read-only part is judged as the analyser judges it alone: outside paths, secrets and redirects are not read-only', async () => {
    const allow = ['Bash(rm *)'];
    for (const command of [
      'cat /etc/passwd && rm x',
      'cat .env; rm x',
      'ls > listing.txt && rm x',
      'rm x; git config --global user.name',
      'echo $(curl -s x.test) | rm x',
    ]) {
      expect((await decide(command, { allow })).behavior, command).toBe('ask');
    }
  });

  it('a rule-allowed part that changes the shell (cd, export, source) lets no read-only part ride free', async () => {
    expect(await decide('cd /etc && cat passwd', { allow: ['Bash(cd *)'] })).toMatchObject({
      behavior: 'ask',
      suggestions: ['Bash(cat passwd)'],
    });
    expect((await decide('cd /etc && cat passwd', { allow: ['Bash(cd *)'] })).reason).toContain(
      'read-only, but `cd /etc` runs in the shell',
    );
    expect((await decide('export PATH=./bin:$PATH; ls', { allow: ['Bash(export *)'] })).behavior).toBe('ask');
    expect((await decide('source env.sh && git status', { allow: ['Bash(source *)'] })).behavior).toBe('ask');
    // With rules for every part it is the rule author's choice, as before.
    expect((await decide('cd sub && ls', { allow: ['Bash(cd *)', 'Bash(ls *)'] })).behavior).toBe('allow');
  });

  it('failures outside every part make the whole line a part that rules must match (they used to pass unseen)', async () => {
    const allow = ['Bash(rm *)', 'Bash(ls *)'];
    for (const command of [
      '> ~/.bashrc && rm x',
      '{ ls; rm x; } > out',
      "[[ -v 'a[$(touch pwn)]' ]] && rm x",
      '(( a[$(touch p)] )); rm x',
      'case ${!x} in a) rm y;; esac',
    ]) {
      const d = await decide(command, { allow });
      expect(d.behavior, command).toBe('ask');
      expect(d.suggestions, command).toContain(formatRule('Bash', command));
    }
  });

  it('no ask row of the adversarial corpus is allowed without rules (some part always needs one)', async () => {
    const rows = loadCorpus('adversarial.jsonl').filter((r) => r.expected === 'ask');
    for (const row of rows) expect((await decide(row.command)).behavior, row.command).not.toBe('allow');
  });

  // Parts from five pools, joined by random operators: the decision follows the contract exactly.
  const POOLS = {
    readOnly: ['ls', 'git status', 'cat README.md', 'wc -l notes.txt', 'echo hi', 'git log --oneline'],
    allowed: ['rm x', 'touch made.txt', 'npm install', 'mkdir d'],
    shell: ['cd /etc'],
    unknown: ['curl example.com', 'cp a b', 'make build'],
    denied: ['git push origin main', 'chmod 777 x', 'head -1 denied.txt'],
    asked: ['git commit -m x', 'tail -1 asked.txt'],
  };
  const RULES: Rules = {
    allow: ['Bash(rm *)', 'Bash(touch *)', 'Bash(npm install *)', 'Bash(mkdir *)', 'Bash(cd *)'],
    deny: ['Bash(git push *)', 'Bash(chmod *)', 'Bash(head -1 denied.txt)'],
    ask: ['Bash(git commit *)', 'Bash(tail -1 asked.txt)'],
  };
  type Pool = keyof typeof POOLS;
  const partArb = fc
    .constantFrom(...(Object.keys(POOLS) as Pool[]))
    .chain((pool) => fc.constantFrom(...POOLS[pool]).map((command) => ({ pool, command })));

  function expected(pools: Pool[]): PermissionDecision['behavior'] {
    if (pools.includes('denied')) return 'deny';
    if (pools.includes('asked')) return 'ask';
    if (pools.every((p) => p === 'readOnly')) return 'allow';
    const free: Pool[] = pools.includes('shell') ? ['allowed', 'shell'] : ['readOnly', 'allowed'];
    return pools.every((p) => free.includes(p)) ? 'allow' : 'ask';
  }

  it('property: allow iff every part is read-only or rule-allowed and none is denied or ask-ruled; deny if any is denied', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(partArb, { minLength: 1, maxLength: 5 }),
        fc.array(fc.constantFrom('&&', ';', '|', '||'), { minLength: 4, maxLength: 4 }),
        async (parts, ops) => {
          const command = parts.map((p, i) => (i === 0 ? p.command : `${ops[i - 1]} ${p.command}`)).join(' ');
          const d = await decide(command, RULES);
          expect(d.behavior, `${command}: ${d.reason}`).toBe(expected(parts.map((p) => p.pool)));
        },
      ),
      { numRuns: 300 },
    );
  });
});
