import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildBwrapArgs, sandboxCommand, SECCOMP_FD, type SandboxPlan } from '../../../src/coding/sandbox/argv.js';
import { unixSocketFilter } from '../../../src/coding/sandbox/seccomp.js';
import { expandPath, parseDenyRead } from '../../../src/coding/sandbox/settings.js';

const segment = fc.stringMatching(/^[a-z0-9._-]{1,8}$/).filter((s) => s !== '.' && s !== '..');
const absPath = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => `/${parts.join('/')}`);
const paths = fc.array(absPath, { maxLength: 4 });

const under = (child: string, parent: string): boolean => child === parent || child.startsWith(`${parent}/`);
const anyPlan: fc.Arbitrary<SandboxPlan> = fc.record({
  cwd: absPath,
  supportDir: absPath,
  tmpDir: fc.constant(''),
  writable: paths,
  readOnly: paths,
  emptyReadOnlyDirs: paths,
  deniedDirs: paths,
  deniedFiles: paths,
  deniedFileSource: absPath,
});
/**
 * Plans as the planner makes them (the temp folder inside the support folder) whose protected
 * folders do not hold wield's own folders; that case has its own test.
 */
const plan = anyPlan
  .map((p) => ({ ...p, tmpDir: `${p.supportDir}/tmp` }))
  .filter((p) => [...p.readOnly, ...p.emptyReadOnlyDirs, ...p.deniedDirs].every((d) => !under(p.tmpDir, d) && !under(p.supportDir, d)));
const argv = fc.array(fc.string(), { minLength: 1, maxLength: 4 });

/**
 * Index of the last `--flag a b` triple in args (before the command separator): bwrap applies
 * mounts in order, so the last one for a path is the one in effect (a protected path may also
 * be the support folder, mounted earlier).
 */
function mountIndex(args: string[], flag: string, src: string, dest: string): number {
  const end = args.indexOf('--');
  for (let i = end - 1; i >= 0; i--) {
    if (args[i] === flag && args[i + 1] === src && args[i + 2] === dest) return i;
  }
  return -1;
}

describe('buildBwrapArgs', () => {
  it('starts from a read-only root and ends with the untouched command after --', () => {
    fc.assert(
      fc.property(plan, argv, (p, cmd) => {
        const args = buildBwrapArgs(p, cmd);
        expect(args.slice(0, 3)).toEqual(['--ro-bind', '/', '/']);
        const sep = args.indexOf('--');
        expect(args.slice(sep + 1)).toEqual(cmd);
      }),
    );
  });

  it('always isolates network, PIDs and capabilities, and never shares the network', () => {
    fc.assert(
      fc.property(plan, argv, (p, cmd) => {
        const opts = buildBwrapArgs(p, cmd).slice(0, buildBwrapArgs(p, cmd).indexOf('--'));
        for (const flag of ['--unshare-net', '--unshare-pid', '--die-with-parent', '--new-session']) {
          expect(opts).toContain(flag);
        }
        expect(opts[opts.indexOf('--cap-drop') + 1]).toBe('ALL');
        expect(opts).not.toContain('--share-net');
      }),
    );
  });

  it('mounts every hole after every writable folder, so protection wins over write access', () => {
    fc.assert(
      fc.property(plan, argv, (p, cmd) => {
        const args = buildBwrapArgs(p, cmd);
        const lastWritable = Math.max(
          mountIndex(args, '--bind', p.tmpDir, p.tmpDir),
          ...p.writable.map((w) => mountIndex(args, '--bind', w, w)),
        );
        expect(lastWritable).toBeGreaterThan(0);
        for (const r of p.readOnly) expect(mountIndex(args, '--ro-bind', r, r)).toBeGreaterThan(lastWritable);
        for (const f of p.deniedFiles) {
          expect(mountIndex(args, '--ro-bind', p.deniedFileSource, f)).toBeGreaterThan(lastWritable);
        }
        const end = args.indexOf('--');
        for (const d of [...p.deniedDirs, ...p.emptyReadOnlyDirs]) {
          const at = args.findIndex((a, i) => i < end && a === '--tmpfs' && args[i + 1] === d);
          expect(at).toBeGreaterThan(lastWritable);
          expect(args.slice(at + 2, at + 4)).toEqual(['--remount-ro', d]);
        }
        for (const d of p.deniedDirs) {
          const at = args.findIndex(
            (a, i) => i < end && a === '--perms' && args[i + 1] === '0000' && args[i + 2] === '--tmpfs' && args[i + 3] === d,
          );
          expect(at).toBeGreaterThan(lastWritable);
        }
      }),
    );
  });

  it("keeps wield's support folder read-only, with only the temp folder inside it writable", () => {
    fc.assert(
      fc.property(plan, argv, (p, cmd) => {
        const args = buildBwrapArgs(p, cmd);
        const support = mountIndex(args, '--ro-bind', p.supportDir, p.supportDir);
        expect(support).toBeGreaterThan(Math.max(-1, ...p.writable.map((w) => mountIndex(args, '--bind', w, w))));
        expect(mountIndex(args, '--bind', p.tmpDir, p.tmpDir)).toBeGreaterThan(support);
      }),
    );
  });

  it("keeps wield's own folders usable when a protected folder holds them (a workspace at $HOME)", () => {
    const home = buildBwrapArgs(
      {
        cwd: '/home/u',
        supportDir: '/home/u/.wield/sessions/s/sandbox',
        tmpDir: '/home/u/.wield/sessions/s/sandbox/tmp',
        writable: ['/home/u'],
        readOnly: ['/home/u/.wield'],
        emptyReadOnlyDirs: [],
        deniedDirs: [],
        deniedFiles: [],
        deniedFileSource: '/x',
      },
      ['true'],
    );
    expect(mountIndex(home, '--bind', '/home/u/.wield/sessions/s/sandbox/tmp', '/home/u/.wield/sessions/s/sandbox/tmp')).toBeGreaterThan(
      mountIndex(home, '--ro-bind', '/home/u/.wield', '/home/u/.wield'),
    );
  });

  it('sandboxCommand runs bwrap directly, handing it the filter file on the seccomp fd', () => {
    fc.assert(
      fc.property(plan, argv, absPath, (p, cmd, filterFile) => {
        expect(sandboxCommand('/usr/bin/bwrap', p, cmd)).toEqual({ file: '/usr/bin/bwrap', args: buildBwrapArgs(p, cmd) });
        const launched = sandboxCommand('/usr/bin/bwrap', p, cmd, filterFile);
        expect(launched.file).toBe('/usr/bin/bwrap');
        expect(launched.inherit).toEqual({ fd: SECCOMP_FD, file: filterFile });
        const bwrapArgs = launched.args;
        const at = bwrapArgs.indexOf('--seccomp');
        expect(at).toBeGreaterThan(0);
        expect(at).toBeLessThan(bwrapArgs.indexOf('--'));
        expect(bwrapArgs[at + 1]).toBe(String(SECCOMP_FD));
        expect(bwrapArgs.slice(bwrapArgs.indexOf('--') + 1)).toEqual(cmd);
      }),
    );
  });

  it('sets TMPDIR to the session temp folder and starts in cwd', () => {
    fc.assert(
      fc.property(plan, argv, (p, cmd) => {
        const args = buildBwrapArgs(p, cmd);
        expect(mountIndex(args, '--setenv', 'TMPDIR', p.tmpDir)).toBeGreaterThan(0);
        expect(args[args.indexOf('--chdir') + 1]).toBe(p.cwd);
      }),
    );
  });
});

describe('parseDenyRead', () => {
  it('splits paths, bare-name patterns and exemptions', () => {
    expect(parseDenyRead(['~/.ssh', '/etc/secret', '.env', '.env.*', '!.env.example', 'keys/*.pem', ' '], '/h')).toEqual({
      paths: ['/h/.ssh', '/etc/secret'],
      patterns: ['**/.env', '**/.env.*', 'keys/*.pem'],
      exempt: ['**/.env.example'],
    });
  });

  it('puts every entry in exactly one bucket; paths come out absolute', () => {
    const entry = fc.oneof(
      absPath,
      segment.map((s) => `~/${s}`),
      segment,
      segment.map((s) => `!${s}`),
    );
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 8 }), (entries) => {
        const spec = parseDenyRead(entries, '/home/u');
        expect(spec.paths.length + spec.patterns.length + spec.exempt.length).toBe(entries.length);
        for (const p of spec.paths) expect(p.startsWith('/')).toBe(true);
        for (const p of [...spec.patterns, ...spec.exempt]) expect(p.startsWith('/')).toBe(false);
      }),
    );
  });
});

describe('expandPath', () => {
  it('expands ~ and resolves relative paths against the base', () => {
    expect(expandPath('~', '/w', '/h')).toBe('/h');
    expect(expandPath('~/.cache', '/w', '/h')).toBe('/h/.cache');
    expect(expandPath('build', '/w', '/h')).toBe('/w/build');
    expect(expandPath('/abs/x', '/w', '/h')).toBe('/abs/x');
  });
});

describe('unixSocketFilter', () => {
  const insns = (buf: Buffer) =>
    Array.from({ length: buf.length / 8 }, (_, i) => ({
      code: buf.readUInt16LE(i * 8),
      jt: buf.readUInt8(i * 8 + 2),
      jf: buf.readUInt8(i * 8 + 3),
      k: buf.readUInt32LE(i * 8 + 4),
    }));

  it.each(['x64', 'arm64'] as const)('on %s: every jump lands inside the program, which ends in a return', (arch) => {
    const prog = insns(unixSocketFilter(arch) as Buffer);
    prog.forEach((ins, i) => {
      if (ins.code === 0x15) {
        expect(i + 1 + ins.jt).toBeLessThan(prog.length);
        expect(i + 1 + ins.jf).toBeLessThan(prog.length);
      }
    });
    expect(prog.at(-1)?.code).toBe(0x06);
    // AF_UNIX refused with EPERM; anything else allowed.
    expect(prog.filter((ins) => ins.code === 0x06).map((ins) => ins.k)).toContain(0x00050001);
    expect(prog.filter((ins) => ins.code === 0x06).map((ins) => ins.k)).toContain(0x7fff0000);
  });

  it.each(['x64', 'arm64'] as const)('on %s: checks io_uring (setup, enter, register), socket and socketpair', (arch) => {
    const checked = insns(unixSocketFilter(arch) as Buffer)
      .filter((ins) => ins.code === 0x15)
      .map((ins) => ins.k);
    expect(checked).toEqual(expect.arrayContaining([425, 426, 427, arch === 'x64' ? 41 : 198, arch === 'x64' ? 53 : 199]));
  });

  it('has no filter for architectures it was not written for', () => {
    expect(unixSocketFilter('ia32')).toBeUndefined();
    expect(unixSocketFilter('riscv64')).toBeUndefined();
  });
});
