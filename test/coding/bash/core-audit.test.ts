// The audited core (programs that run unasked where nothing contains them) checked against the
// real binaries on this machine: every option the model accepts must be one the binary documents
// in --help, taking a value exactly when the binary's does. A model option the binary lacks would
// make the analyser resolve an abbreviation (`--fo`) or an operand differently from the binary.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { AUDITED_BINARIES, AUDITED_CORE } from '../../../src/coding/bash/programs/core.js';
import { PROGRAMS } from '../../../src/coding/bash/programs/table.js';

function help(program: string): string | undefined {
  try {
    return execFileSync(program, ['--help'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, LC_ALL: 'C' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (err) {
    // Some print their help and exit non-zero; a missing binary throws ENOENT.
    const out = (err as { stdout?: string }).stdout;
    return out ? out : undefined;
  }
}

/** Whether the binary accepts an option its help leaves out (`df -m`), tried on /dev/null. */
function accepts(program: string, option: string): boolean {
  try {
    execFileSync(program, [option, '/dev/null'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, LC_ALL: 'C' },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 5_000,
    });
    return true;
  } catch (err) {
    return !/unrecognized option|invalid option|unknown option/.test(String((err as { stderr?: string }).stderr));
  }
}

/** Long options as the help shows them: name → takes a value (`--name=X`, `--name X`, `--name[=X]`). */
function documentedLong(text: string): Map<string, boolean> {
  const found = new Map<string, boolean>();
  for (const m of text.matchAll(/--([a-z0-9][a-z0-9-]*)(\[?=|\s[A-Z]{1,12}\b)?/g)) {
    found.set(m[1], (found.get(m[1]) ?? false) || m[2] !== undefined);
  }
  return found;
}

const modelLong = (spec: { long?: readonly string[] }) =>
  (spec.long ?? []).map((l) => ({ name: l.replace(/=[?+]?$/, ''), value: l.includes('=') }));
const modelShort = (spec: { short?: string }) => [...(spec.short ?? '').replace(/:/g, '')];

describe('audited core', () => {
  it('names only programs the table models', () => {
    for (const name of AUDITED_CORE) expect(PROGRAMS.has(name), name).toBe(true);
  });

  describe.each(AUDITED_BINARIES)('%s', (name) => {
    const text = help(name);
    const spec = PROGRAMS.get(name) ?? {};
    it.skipIf(text === undefined)(`models only options ${name} --help documents`, () => {
      const long = documentedLong(text ?? '');
      const unknown = modelLong(spec).filter((o) => !long.has(o.name));
      expect(unknown.map((o) => `--${o.name}`)).toEqual([]);
      const kind = modelLong(spec).filter((o) => long.get(o.name) !== o.value);
      expect(kind.map((o) => `--${o.name} ${o.value ? 'takes a value in the model' : 'is a flag in the model'}`)).toEqual([]);
      const short = modelShort(spec)
        .filter((c) => !new RegExp(`(^|[\\s,\\[])-${c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'm').test(text ?? ''))
        .filter((c) => !accepts(name, `-${c}`));
      expect(short.map((c) => `-${c}`)).toEqual([]);
    });
  });
});
