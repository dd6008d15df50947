// coverParts, the pure rule-coverage step for compound calls: no I/O, no analyser.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { coverParts, type PartFacts } from '../../../src/coding/permissions/compound.js';

const ro: PartFacts<string> = { readOnly: true, inShell: false };
const writes: PartFacts<string> = { readOnly: false, inShell: false };
const ruled = (rule: string, inShell = false): PartFacts<string> => ({ rule, readOnly: false, inShell });

describe('coverParts', () => {
  it('a read-only part needs no rule next to a rule-allowed one', () => {
    expect(coverParts([ro, ruled('Bash(rm *)')])).toEqual({ allowed: true, rules: ['Bash(rm *)'], free: [0], uncovered: [] });
  });
  it('a part that is neither read-only nor allowed is uncovered', () => {
    expect(coverParts([ro, ruled('Bash(rm *)'), writes])).toMatchObject({ allowed: false, free: [0], uncovered: [2] });
    expect(coverParts([ro, writes])).toMatchObject({ allowed: false, rules: [], uncovered: [1] });
  });
  it('all read-only is left to the read-only path (no rule decided it)', () => {
    expect(coverParts([ro, ro])).toMatchObject({ allowed: false, rules: [], free: [0, 1], uncovered: [] });
    expect(coverParts([])).toMatchObject({ allowed: false, rules: [], uncovered: [] });
  });
  it('a rule wins over read-only, and rules are listed once in order', () => {
    expect(coverParts([{ ...ro, rule: 'Bash(ls *)' }, ruled('Bash(rm *)'), ruled('Bash(ls *)')])).toEqual({
      allowed: true,
      rules: ['Bash(ls *)', 'Bash(rm *)'],
      free: [],
      uncovered: [],
    });
  });
  it('a rule-allowed part that runs in the shell (cd, export) keeps every read-only part from riding free', () => {
    expect(coverParts([ruled('Bash(cd *)', true), ro])).toEqual({
      allowed: false,
      rules: ['Bash(cd *)'],
      free: [],
      uncovered: [1],
      shellChanger: 0,
    });
    expect(coverParts([ro, ruled('Bash(cd *)', true), ruled('Bash(ls *)')])).toMatchObject({
      allowed: false,
      uncovered: [0],
      shellChanger: 1,
    });
    expect(coverParts([ruled('Bash(cd *)', true), ruled('Bash(ls *)')])).toMatchObject({ allowed: true });
    // A read-only builtin (echo) changes nothing, even with a rule.
    expect(coverParts([{ rule: 'Bash(echo *)', readOnly: true, inShell: true }, ro, ruled('Bash(rm *)')])).toMatchObject({
      allowed: true,
      free: [1],
    });
  });

  it('property: allowed iff every part is ruled or read-only (with no ruled shell-changer), and some part is ruled', () => {
    const part = fc.record({
      rule: fc.option(fc.constantFrom('A', 'B', 'C'), { nil: undefined }),
      readOnly: fc.boolean(),
      inShell: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(part, { maxLength: 8 }), (parts) => {
        const c = coverParts(parts);
        const changer = parts.some((p) => p.rule !== undefined && !p.readOnly && p.inShell);
        const covered = parts.every((p) => p.rule !== undefined || (p.readOnly && !changer));
        expect(c.allowed).toBe(covered && parts.some((p) => p.rule !== undefined));
        // Every part is exactly one of: ruled, free, uncovered.
        const ruledCount = parts.filter((p) => p.rule !== undefined).length;
        expect(ruledCount + c.free.length + c.uncovered.length).toBe(parts.length);
        for (const i of c.free) expect(parts[i]).toMatchObject({ rule: undefined, readOnly: true });
        expect(new Set(c.rules)).toEqual(new Set(parts.flatMap((p) => (p.rule === undefined ? [] : [p.rule]))));
      }),
      { numRuns: 500 },
    );
  });
});
