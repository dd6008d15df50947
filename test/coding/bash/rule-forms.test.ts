// The forms deny and ask rules also see (rule-forms.ts): base names, unwrapped commands, scripts,
// global options removed. Pure tests of the function, then through the analyser that feeds it.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeBash, loadBashAnalyzer, matchBashRule } from '../../../src/coding/bash/index.js';
import { operandStarts, ruleForms, type FormWord, type RuleForms } from '../../../src/coding/bash/rule-forms.js';

const opts = { cwd: '/srv/project', roots: ['/srv/project'] };
/** Every text deny and ask rules see for a line: the parts and their forms. */
const seen = (command: string): string[] => analyzeBash(command, opts).parts.flatMap((p) => [p.command, ...(p.forms ?? [])]);
const matches = (pattern: string, command: string): boolean => seen(command).some((t) => matchBashRule(pattern, t));

/** Plain words (no quoting), and scripts split on `;` for the pure tests. */
const words = (line: string): FormWord[] =>
  line
    .split(' ')
    .filter(Boolean)
    .map((w) => ({ text: w, value: w }));
const splitScript = (script: string): RuleForms => ({
  forms: script
    .split(';')
    .map((s) => s.trim())
    .flatMap((s) => ruleForms(words(s), splitScript).forms),
});
const formsOf = (line: string): string[] => ruleForms(words(line), splitScript).forms;

beforeAll(async () => {
  await loadBashAnalyzer();
});

describe('ruleForms (pure)', () => {
  it('unwraps wrappers with their options, and strips global options before a subcommand', () => {
    expect(formsOf('sudo -u root -- /bin/rm -rf x')).toContain('rm -rf x');
    expect(formsOf('timeout -s KILL 5 nice -n 3 rm x')).toContain('rm x');
    expect(formsOf('env -i FOO=1 BAR=2 rm x')).toContain('rm x');
    expect(formsOf('xargs -0 -n 1 -I{} rm {}')).toContain('rm {}');
    expect(formsOf('find . -name a -exec rm {} ; -print')).toContain('rm {}');
    expect(formsOf('eval rm x')).toContain('rm x');
    expect(formsOf('git -C . -c a=b --no-pager --git-dir=.git push origin')).toContain('git push origin');
    expect(formsOf('cargo +nightly build')).toContain('cargo build');
  });

  it('reads an unknown option both ways, so an out-of-date table gives more forms, not fewer', () => {
    expect(operandStarts(words('--new-flag rm x'), {}).starts).toEqual([1, 2]);
    expect(formsOf('sudo --new-option rm x')).toEqual(expect.arrayContaining(['rm x', 'x']));
    expect(formsOf('nice -10 rm x')).toContain('rm x');
  });

  it('does not invent commands a lookup never runs', () => {
    expect(formsOf('command -v rm')).toEqual(['command -v rm']);
  });

  it('a line built to make thousands of forms is opaque instead', () => {
    const r = ruleForms(words(`${'nohup '.repeat(200)}rm x`), splitScript);
    expect(r.opaque).toBeDefined();
  });

  const WRAPPERS = [
    'nohup',
    'sudo',
    'sudo -u root',
    'sudo -E --',
    'exec',
    'exec -a x',
    'builtin',
    'command',
    'env',
    'env A=1',
    'env -i P=/bin',
    'nice',
    'nice -n 5',
    'timeout 5',
    'timeout -k 1 9',
    'time',
    'time -p',
    'stdbuf -o0',
    'setsid -w',
    'xargs',
    'xargs -0 -I{}',
    'doas -u root',
    'ionice -c 3',
    'find . -exec',
    'eval',
    'watch -n 1',
  ];
  it('property: any chain of wrappers keeps the wrapped command among the forms', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...WRAPPERS), { maxLength: 6 }),
        fc.constantFrom('rm -rf x', 'git push origin', '/usr/bin/git -C . push'),
        (chain, cmd) => {
          const line = [...chain, cmd].join(' ');
          const want = cmd.includes('git') ? 'git push *' : 'rm *';
          expect(
            formsOf(line).some((f) => matchBashRule(want, f)),
            line,
          ).toBe(true);
        },
      ),
    );
  });
});

describe('forms of analysed lines', () => {
  it('the reported bypasses of `Bash(rm *)` all show `rm` to deny rules', () => {
    for (const command of [
      '/bin/rm x',
      '\\rm x',
      '"rm" x',
      "r''m x",
      'nohup rm x',
      'exec rm x',
      'sudo rm x',
      'ls | xargs rm',
      'eval rm x',
      'builtin rm x',
      'find . -exec rm {} \\;',
      'ls | xargs -I{} rm {}',
      'FOO=1 rm x',
      'rm x 2>/dev/null',
      'timeout --zz 5 rm x',
      'env -C /tmp rm x',
      "bash -O extglob -c 'rm x'",
      "env -S 'rm x'",
      "eval 'rm x'",
      'sudo -u root -- rm -rf /',
      'time rm x',
      'watch rm x',
      'x=$(nohup /bin/rm x)',
    ]) {
      expect(matches('rm *', command), command).toBe(true);
    }
  });

  it('and `Bash(git push *)` sees git with its global options removed', () => {
    for (const command of [
      'git -C . push origin main',
      'git --no-pager push origin main',
      'git -c x.y=z push',
      'git push origin main >/dev/null 2>&1',
      'sudo /usr/bin/git -P push',
    ]) {
      expect(matches('git push *', command), command).toBe(true);
    }
  });

  it('words that are only data stay data', () => {
    for (const command of ['echo rm x', 'grep rm notes.txt', 'command -v rm', 'ls | xargs grep rm', "git log --grep='push'", 'cat rm']) {
      expect(matches('rm *', command) || matches('git push *', command), command).toBe(false);
    }
  });

  it('a line the analyser cannot read is marked opaque, as is one nesting scripts too deeply', () => {
    for (const command of [
      'rm x; (',
      '{v}>f rm x',
      `${'eval '.repeat(8)}rm x`,
      'sh -c "sh -c \'sh -c \\"sh -c \\\\\\"sh -c rm\\\\\\"\\"\'"',
    ]) {
      expect(
        analyzeBash(command, opts).parts.some((p) => p.opaque),
        command,
      ).toBe(true);
    }
    for (const command of ['ls -la', 'eval ls', "bash -c 'ls; rm x'", 'sudo rm x']) {
      expect(
        analyzeBash(command, opts).parts.some((p) => p.opaque),
        command,
      ).toBe(false);
    }
  });

  it('a form never repeats the part it belongs to', () => {
    for (const command of ['ls && rm x', 'cat <<<"$(rm x)"', 'git status; touch y']) {
      const a = analyzeBash(command, opts);
      for (const p of a.parts) expect(p.forms ?? [], command).not.toContain(p.command);
    }
  });
});
