// A seccomp filter that refuses socket(AF_UNIX, ...) with EPERM. A read-only bind does not stop
// connect() to a Unix socket on the file system, and such sockets lead outside the sandbox
// (Docker's socket, the D-Bus session bus that can start services, ssh-agent, tmux). Pairs from
// socketpair() stay allowed: they connect nothing outside and child-process plumbing needs them.
// Hand-assembled because no libseccomp binding is among the dependencies; the program is 10
// classic-BPF instructions, checked by the tests against a real kernel.

// linux/filter.h opcodes: BPF_LD|BPF_W|BPF_ABS, BPF_JMP|BPF_JEQ|BPF_K, BPF_RET|BPF_K.
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const RET_K = 0x06;
// linux/seccomp.h: SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO | EPERM (1).
const RET_ALLOW = 0x7fff0000;
const RET_EPERM = 0x00050001;
// struct seccomp_data offsets: nr (0), arch (4), args[0] (16; low 32 bits first on little-endian).
const OFF_NR = 0;
const OFF_ARCH = 4;
const OFF_ARG0 = 16;
const AF_UNIX = 1;
// x32 system calls on x86-64 carry this bit in nr (arch/x86/include/uapi/asm/unistd.h).
const X32_SYSCALL_BIT = 0x40000000;

interface ArchInfo {
  /** AUDIT_ARCH_* from linux/audit.h. */
  audit: number;
  /** socket(2) numbers: the native one and, on x86-64, the x32 one. */
  socketNrs: number[];
}

const ARCHES: Partial<Record<NodeJS.Architecture, ArchInfo>> = {
  // arch/x86/entry/syscalls/syscall_64.tbl: socket = 41.
  x64: { audit: 0xc000003e, socketNrs: [41, X32_SYSCALL_BIT | 41] },
  // include/uapi/asm-generic/unistd.h: __NR_socket = 198.
  arm64: { audit: 0xc00000b7, socketNrs: [198] },
};

type Insn = [code: number, jt: number, jf: number, k: number];

/**
 * The filter as bwrap's `--seccomp FD` expects it (raw struct sock_filter array), or undefined
 * on architectures it is not written for. Other ABIs on the same machine (i386 on x86-64, arm32
 * on arm64, which reach sockets through socketcall) get EPERM for every call.
 */
export function unixSocketFilter(arch: NodeJS.Architecture = process.arch): Buffer | undefined {
  const info = ARCHES[arch];
  if (info === undefined) return undefined;
  const n = info.socketNrs.length;
  // Layout: [0] ld arch, [1] jeq native, [2] ret EPERM, [3] ld nr, [4..4+n) jeq socket,
  // [4+n] ret ALLOW, [5+n] ld arg0, [6+n] jeq AF_UNIX, [7+n] ret ALLOW, [8+n] ret EPERM.
  const allowAfterNr = 4 + n;
  const insns: Insn[] = [
    [LD_W_ABS, 0, 0, OFF_ARCH],
    [JEQ_K, 1, 0, info.audit],
    [RET_K, 0, 0, RET_EPERM],
    [LD_W_ABS, 0, 0, OFF_NR],
    ...info.socketNrs.map((nr, i): Insn => [JEQ_K, allowAfterNr - (4 + i), 0, nr]),
    [RET_K, 0, 0, RET_ALLOW],
    [LD_W_ABS, 0, 0, OFF_ARG0],
    [JEQ_K, 1, 0, AF_UNIX],
    [RET_K, 0, 0, RET_ALLOW],
    [RET_K, 0, 0, RET_EPERM],
  ];
  const buf = Buffer.alloc(insns.length * 8);
  insns.forEach(([code, jt, jf, k], i) => {
    buf.writeUInt16LE(code, i * 8);
    buf.writeUInt8(jt, i * 8 + 2);
    buf.writeUInt8(jf, i * 8 + 3);
    buf.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return buf;
}
