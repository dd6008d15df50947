// "Always allow" suggestions for Bash: a prefix rule only where it cannot let arbitrary code run,
// the exact command otherwise, and for one ask, rules that together allow the whole line.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBashAnalyzer, matchBashRule } from '../../../src/coding/bash/index.js';
import { partsNeedingRules } from '../../../src/coding/permissions/compound.js';
import { formatRule } from '../../../src/coding/permissions/rules.js';
import { bashRuleFor } from '../../../src/coding/permissions/suggest.js';
import { decideBash } from './decide-bash.js';

beforeAll(async () => {
  await loadBashAnalyzer();
});

const content = (rule: string): string => /^Bash\((.*)\)$/s.exec(rule)?.[1]?.replace(/\\([\\()])/g, '$1') ?? '';

describe('bashRuleFor', () => {
  // Each command was offered a prefix rule that then allowed the dangerous form beside it.
  it.each([
    ["sed '1e id' x", 'sed 1e\\ id x'],
    ['sed -i s/a/b/ x', 'sed -i s/a/b/ /etc/passwd'],
    ['sed p x', "sed 'e rm x' x"],
    ['sort --compress-program=sh x', 'sort --compress-program=./evil y'],
    ['sort data.txt -o out', 'sort data.txt --compress-program=sh'],
    ['rg --pre ./evil.sh a', 'rg --pre ./evil.sh b'],
    ['rg foo /etc', 'rg foo --pre ./evil.sh'],
    ['fd -x rm', 'fd -x rm -rf'],
    ['git -c core.pager=rm log', 'git -c core.pager=sh log'],
    ['git --exec-path=. status', 'git --exec-path=/tmp status'],
    ['git log --output=/tmp/x', 'git log --output=/home/u/.bashrc'],
    ['git config core.pager less', "git config core.pager 'rm -rf ~'"],
    ['git submodule update', "git submodule foreach 'rm -rf ~'"],
    ['docker run alpine ls', 'docker run -v /:/h alpine rm -rf /h'],
    ["man -P 'rm x' ls", "man -P 'rm y' ls"],
    ["trap 'rm x' EXIT", "trap 'rm y' EXIT"],
    ['tar xf a.tar b', 'tar xf a.tar --to-command=sh'],
    ['make build X=1', "make build SHELL='rm -rf ~'"],
    ['cp a b', 'cp a /home/u/.bashrc'],
    ['cat ~/.ssh/id_rsa', 'cat ~/.aws/credentials'],
    ['grep foo /etc/passwd', 'grep foo /etc/shadow'],
    ['echo $ANTHROPIC_API_KEY', 'echo $OPENAI_API_KEY'],
  ])('%s gets a rule that does not allow %s', (command, dangerous) => {
    const rule = bashRuleFor(command) as string;
    expect(matchBashRule(content(rule), command), rule).toBe(true);
    expect(matchBashRule(content(rule), dangerous), rule).toBe(false);
  });

  it('keeps `prog sub *` for a plain subcommand of a program whose arguments cannot run code', () => {
    expect(bashRuleFor('git push origin main')).toBe('Bash(git push *)');
    expect(bashRuleFor('npm install left-pad')).toBe('Bash(npm install *)');
    expect(bashRuleFor('cargo build --release')).toBe('Bash(cargo build *)');
    expect(bashRuleFor('npm run build -- --watch')).toBe('Bash(npm run *)');
    // Tables are looked up by own names only: `constructor` is a program like any other.
    expect(bashRuleFor('constructor x y')).toBe('Bash(constructor x *)');
  });

  it('a secret read gets the exact command whatever the program', () => {
    expect(bashRuleFor('npm publish dist', 'Bash', true)).toBe('Bash(npm publish dist)');
  });

  const pool = [
    'git push origin main',
    'sed -n 1p a',
    'npm install x',
    'touch a b',
    'rm -rf x',
    'echo hi > out',
    'git log -p',
    'make build X=1',
    'cargo test --all',
    './run.sh a b',
  ];
  it('property: every suggestion matches the command it was offered for', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...pool),
        fc.array(fc.constantFrom('x', '--y', '-z', "'q r'", '"$A"', '2>&1'), { maxLength: 3 }),
        (base, extra) => {
          const command = [base, ...extra].join(' ');
          const rule = bashRuleFor(command);
          if (rule) expect(matchBashRule(content(rule), command), `${rule} for ${command}`).toBe(true);
        },
      ),
    );
  });
});

describe('suggestions and reasons through the engine', () => {
  it('the reported commands are offered only their exact text', async () => {
    for (const command of [
      "sed '1e id' x",
      'sed -i s/a/b/ x',
      'sort --compress-program=sh x',
      'rg --pre ./evil.sh a',
      'fd -x rm',
      'git -c core.pager=rm log',
      'git --exec-path=. status',
      "man -P 'rm x' ls",
      "trap 'rm x' EXIT",
      'cat ~/.ssh/id_rsa',
      'echo $ANTHROPIC_API_KEY',
    ]) {
      expect((await decideBash(command)).suggestions, command).toEqual([formatRule('Bash', command)]);
    }
  });

  it('a secret read says so', async () => {
    expect((await decideBash('cat ~/.ssh/id_rsa')).reason).toMatch(/^Bash may read a secret and no rule allows/);
    expect((await decideBash('echo $GITHUB_TOKEN')).reason).toMatch(/^Bash may read a secret/);
    expect((await decideBash('cat .env && rm x')).reason).toMatch(/^Bash may change things or read a secret/);
    expect((await decideBash('rm x')).reason).toMatch(/^Bash may change things and/);
  });

  it('the rules suggested for one ask together allow the line (a rule-allowed cd stops read-only parts riding free)', async () => {
    const d = await decideBash('cd /etc && cat passwd');
    expect(d.suggestions).toEqual(['Bash(cd /etc)', 'Bash(cat passwd)']);
    expect(await decideBash('cd /etc && cat passwd', { allow: d.suggestions })).toMatchObject({ behavior: 'allow' });
    expect((await decideBash('ls && rm x')).suggestions).toEqual(['Bash(rm x)']);
  });

  const PARTS = [
    'ls',
    'cat README.md',
    'git status',
    'rm x',
    'touch a b',
    'cd /etc',
    'cd sub',
    'export A=1',
    'cat passwd',
    'npm install q',
    'git push origin main',
    'sed -i s/a/b/ f',
  ];
  it('property: adding every suggested rule allows the line', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...PARTS), { minLength: 1, maxLength: 4 }),
        fc.constantFrom(' && ', '; ', ' | '),
        async (parts, op) => {
          const command = parts.join(op);
          const d = await decideBash(command);
          if (d.behavior !== 'ask') return;
          expect((await decideBash(command, { allow: d.suggestions })).behavior, `${command} with ${d.suggestions?.join(', ')}`).toBe(
            'allow',
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('partsNeedingRules', () => {
  const part = (readOnly: boolean, inShell: boolean, rule?: string) => ({ readOnly, inShell, rule });
  it('the uncovered parts, and the read-only ones too once a shell-changing part gets a rule', () => {
    expect(partsNeedingRules([part(true, false), part(false, false)])).toEqual([1]);
    expect(partsNeedingRules([part(false, true), part(true, false)])).toEqual([0, 1]);
    expect(partsNeedingRules([part(false, true, 'cd'), part(true, false)])).toEqual([1]);
    expect(partsNeedingRules([part(true, true), part(true, false)])).toEqual([]);
  });
});
