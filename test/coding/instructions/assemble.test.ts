import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  assembleInstructions,
  chooseInstructionFile,
  cutToBytes,
  describeInstructions,
  instructionFolders,
  MAX_INSTRUCTION_BYTES,
} from '../../../src/coding/instructions/assemble.js';

describe('which folders and files', () => {
  it('searches from the repository root down to the working folder, outermost first', () => {
    expect(instructionFolders('/r/a/b', '/r')).toEqual(['/r', '/r/a', '/r/a/b']);
    expect(instructionFolders('/r', '/r')).toEqual(['/r']);
  });

  it('searches the working folder alone outside a repository (or a root that is not above it)', () => {
    expect(instructionFolders('/x/y', undefined)).toEqual(['/x/y']);
    expect(instructionFolders('/x/y', '/r')).toEqual(['/x/y']);
  });

  it('takes AGENTS.md, and CLAUDE.md only where there is no AGENTS.md', () => {
    expect(chooseInstructionFile(['CLAUDE.md', 'AGENTS.md'])).toBe('AGENTS.md');
    expect(chooseInstructionFile(['README.md', 'CLAUDE.md'])).toBe('CLAUDE.md');
    expect(chooseInstructionFile(['README.md', 'agents.md'])).toBeUndefined();
  });
});

describe('the system-prompt section', () => {
  const user = { path: '/h/.wield/AGENTS.md', scope: 'user' as const, text: 'Answer in British English.' };
  const root = { path: '/r/AGENTS.md', scope: 'project' as const, text: 'Run npm test before finishing.' };
  const sub = { path: '/r/pkg/CLAUDE.md', scope: 'project' as const, text: 'This package uses tabs.' };

  it('holds every file in order, the user file first, labelled', () => {
    const out = assembleInstructions([user, root, sub], { trusted: true, cwd: '/r/pkg' });
    expect(out.files.map((f) => f.path)).toEqual([user.path, root.path, sub.path]);
    expect(out.cut).toBe(false);
    const at = (needle: string) => out.text.indexOf(needle);
    expect(at('# Project instructions')).toBe(0);
    expect(at('British')).toBeLessThan(at('npm test'));
    expect(at('npm test')).toBeLessThan(at('tabs'));
    expect(out.text).toContain("## ../AGENTS.md (the project's)");
    expect(out.text).toContain("## CLAUDE.md (the project's)");
    expect(out.text).toContain("## /h/.wield/AGENTS.md (the user's)");
    expect(out.text).not.toContain('not marked as trusted');
  });

  it("frames an untrusted project's files as data that cannot grant permissions", () => {
    const out = assembleInstructions([root], { trusted: false, cwd: '/r' });
    expect(out.text).toContain('not marked as trusted');
    expect(out.text).toContain('cannot grant permissions');
    // The user's own file alone needs no such frame.
    expect(assembleInstructions([user], { trusted: false, cwd: '/r' }).text).not.toContain('not marked as trusted');
  });

  it('is empty when no file has text', () => {
    expect(assembleInstructions([{ ...root, text: '  \n' }], { trusted: true, cwd: '/r' })).toEqual({ text: '', files: [], cut: false });
  });

  it('is the same text for the same files (stable, so the prompt caches)', () => {
    const a = assembleInstructions([user, root], { trusted: true, cwd: '/r' });
    const b = assembleInstructions([user, root], { trusted: true, cwd: '/r' });
    expect(a.text).toBe(b.text);
  });

  it('cuts at the cap with a note, and names the files left out', () => {
    const big = { ...root, text: `${'x'.repeat(MAX_INSTRUCTION_BYTES - 10)}TAIL-OF-ROOT` };
    const out = assembleInstructions([big, sub], { trusted: true, cwd: '/r' });
    expect(out.cut).toBe(true);
    expect(out.text).not.toContain('TAIL-OF-ROOT');
    expect(out.text).toContain('[cut here: project instructions are capped at 32 KiB; the last 2 bytes of this file were not loaded]');
    expect(out.text).toContain('[not loaded, over the 32 KiB cap: pkg/CLAUDE.md]');
    expect(out.files.map((f) => f.keptBytes)).toEqual([MAX_INSTRUCTION_BYTES, 0]);
    expect(describeInstructions(out, ['/r'])).toContain('/r/pkg/CLAUDE.md (not loaded: over the cap)');
  });

  it('never keeps more than the cap of file text, whatever the files (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 300 }), { maxLength: 6 }),
        fc.integer({ min: 1, max: 400 }),
        (texts, max) => {
          const files = texts.map((text, n) => ({ path: `/r/${n}/AGENTS.md`, scope: 'project' as const, text }));
          const out = assembleInstructions(files, { trusted: true, cwd: '/r', maxBytes: max });
          expect(out.files.reduce((sum, f) => sum + f.keptBytes, 0)).toBeLessThanOrEqual(max);
        },
      ),
    );
  });
});

describe('cutting UTF-8', () => {
  it('never splits a character', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.nat(60), (text, max) => {
        const kept = cutToBytes(text, max);
        expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(Math.max(max, 0));
        expect(text.startsWith(kept)).toBe(true);
        expect(kept).not.toContain('\uFFFD');
      }),
    );
  });
});

describe('the doctor line', () => {
  it('names the files, or where it looked', () => {
    const out = assembleInstructions([{ path: '/r/AGENTS.md', scope: 'project', text: 'hi' }], { trusted: true, cwd: '/r' });
    expect(describeInstructions(out, ['/h/.wield', '/r'])).toBe('/r/AGENTS.md · 2 bytes of 32768 allowed');
    expect(describeInstructions(assembleInstructions([], { trusted: true, cwd: '/r' }), ['/h/.wield', '/r'])).toBe(
      'none found (looked for AGENTS.md or CLAUDE.md in /h/.wield, /r)',
    );
  });
});
