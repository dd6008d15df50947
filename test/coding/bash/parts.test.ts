// The analyser's per-part verdicts: what fails inside a part marks it (and the parts around it),
// a failure outside every part makes the whole line a part, and which parts run in the shell.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeBash, loadBashAnalyzer } from '../../../src/coding/bash/index.js';
import { partVerdicts } from '../../../src/coding/permissions/part-verdicts.js';
import { bashTool } from '../../../src/coding/tools/bash.js';
import { createSession } from '../../../src/runtime/tool/session.js';
import { loadCorpus } from './corpus.js';

const opts = { cwd: '/srv/project', roots: ['/srv/project'], contained: true };
const parts = (cmd: string) => analyzeBash(cmd, opts).parts.map((p) => [p.command, p.readOnly, p.inShell]);

beforeAll(async () => {
  await loadBashAnalyzer();
});

describe('per-part verdicts', () => {
  it('marks only the parts that fail, and the parts that contain them', () => {
    expect(parts('ls && rm x')).toEqual([
      ['ls', true, false],
      ['rm x', false, false],
    ]);
    expect(parts('echo $(rm x) | wc -l')).toEqual([
      ['echo $(rm x)', false, true],
      ['rm x', false, false],
      ['wc -l', true, false],
    ]);
    expect(parts('timeout 5 rm x; ls')).toEqual([
      ['timeout 5 rm x', false, false],
      ['rm x', false, false],
      ['ls', true, false],
    ]);
    expect(parts("sh -c 'ls; rm x' && cat a")).toEqual([
      ["sh -c 'ls; rm x'", false, false],
      ['ls', true, false],
      ['rm x', false, false],
      ['cat a', true, false],
    ]);
    expect(parts('ls > out.txt; ls')).toEqual([
      ['ls > out.txt', false, false],
      ['ls', true, false],
    ]);
    expect(analyzeBash('ls && rm x', opts).parts[1].reason).toBe('`rm` deletes files');
    // A command's own redirections are part of its text once, outer ones are added.
    expect(analyzeBash('cat <<<"$(rm x)"', opts).commands).toEqual(['cat <<<"$(rm x)"', 'rm x']);
    expect(analyzeBash('{ cat <<<a; } 2>/dev/null', opts).commands).toEqual(['cat <<<a']);
    expect(analyzeBash('cat <<<a 2>/dev/null', opts).commands).toEqual(['cat <<<a 2>/dev/null']);
  });

  it('a failure outside every part adds the whole line as a part that is not read-only', () => {
    for (const cmd of [
      '> ~/.bashrc && rm x',
      '{ ls; rm x; } > out',
      "[[ -v 'a[$(touch p)]' ]] && ls",
      '(( a[$(touch p)] )); ls',
      'case ${!x} in a) ls;; esac',
    ]) {
      const a = analyzeBash(cmd, opts);
      expect(a.parts[0], cmd).toMatchObject({ command: cmd, readOnly: false, inShell: true });
      expect(a.commands[0]).toBe(cmd);
    }
    // Early refusals (parse errors, control characters) were already one part: the whole line,
    // whose commands were never read (so deny and ask rules cannot be checked against them).
    expect(analyzeBash('ls (', opts).parts).toEqual([
      { command: 'ls (', readOnly: false, inShell: true, reason: expect.any(String), opaque: expect.any(String) },
    ]);
    expect(analyzeBash('{ ls; } 2>/dev/null', opts)).toMatchObject({ readOnly: true, commands: ['ls'] });
  });

  it('flags parts that may run in the shell itself', () => {
    expect(parts('cd /etc && cat passwd')).toEqual([
      ['cd /etc', false, true],
      ['cat passwd', true, false],
    ]);
    for (const cmd of [
      'export A=1',
      'source x',
      '. x',
      'eval x',
      '"cd" x',
      '$CMD x',
      'c? /etc',
      'X=1',
      'f() { ls; }',
      'for i in 1; do ls; done',
    ]) {
      expect(analyzeBash(cmd, opts).parts[0].inShell, cmd).toBe(true);
    }
    for (const cmd of ['rm x', 'npm test', './run.sh', '/usr/local/bin/tool x'])
      expect(analyzeBash(cmd, opts).parts[0].inShell, cmd).toBe(false);
  });

  it('corpora: a line is read-only exactly when every part is, and commands are the parts', () => {
    for (const row of [...loadCorpus('adversarial.jsonl'), ...loadCorpus('commands-dev.jsonl')]) {
      const a = analyzeBash(row.command, opts);
      expect(a.commands, row.command).toEqual(a.parts.map((p) => p.command));
      if (a.readOnly)
        expect(
          a.parts.every((p) => p.readOnly),
          row.command,
        ).toBe(true);
      else
        expect(
          a.parts.some((p) => !p.readOnly),
          row.command,
        ).toBe(true);
    }
  });

  it('corpora: a part the engine counts as read-only is auto-allowed as a line of its own, and no ask row is all read-only parts', () => {
    const tool = bashTool();
    const session = createSession({ cwd: opts.cwd, dir: '/srv/session' });
    for (const row of [...loadCorpus('adversarial.jsonl'), ...loadCorpus('commands-dev.jsonl')]) {
      const list = analyzeBash(row.command, { cwd: opts.cwd, roots: [opts.cwd, '/srv/session'], contained: true }).parts.map((p) => ({
        command: p.command,
      }));
      const verdicts = partVerdicts(tool, { command: row.command }, list, session);
      verdicts.forEach((v, i) => {
        if (v.readOnly) expect(analyzeBash(list[i].command, opts).readOnly, `${row.command} → ${list[i].command}`).toBe(true);
      });
      if (row.expected === 'ask')
        expect(
          verdicts.every((v) => v.readOnly),
          row.command,
        ).toBe(false);
    }
  });
});
