// A seccomp filter that closes the ways from inside the sandbox to a Unix socket outside it. A
// read-only bind does not stop connect() to a socket on the file system, and such sockets lead
// outside (Docker's socket, the D-Bus session bus that can start services, ssh-agent, tmux):
// - socket(AF_UNIX, ...) is refused with EPERM;
// - io_uring (setup, enter, register) is refused whole: IORING_OP_SOCKET and IORING_OP_CONNECT
//   make and connect a socket without either system call, and nothing a command needs requires it
//   (programs fall back to plain reads and writes when io_uring_setup fails, as under Docker's
//   default profile, which refuses it too);
// - socketpair(AF_UNIX, SOCK_DGRAM) is refused: a datagram socket may sendto() any socket path
//   (/dev/log, journald), though it came from a pair. Stream and seqpacket pairs stay allowed: they
//   are connected to each other for good (EISCONN), and child-process plumbing needs them.
// Other ways were checked and need no rule: open() of a socket file fails (ENXIO); a descriptor
// passed with SCM_RIGHTS must come from a socket the process already has; abstract sockets belong
// to the network namespace, which is the sandbox's own.
// Hand-assembled because no libseccomp binding is among the dependencies; the program is about 25
// classic-BPF instructions, checked by the tests against a real kernel.

// linux/filter.h opcodes: BPF_LD|BPF_W|BPF_ABS, BPF_ALU|BPF_AND|BPF_K, BPF_JMP|BPF_JEQ|BPF_K, BPF_RET|BPF_K.
const LD_W_ABS = 0x20;
const AND_K = 0x54;
const JEQ_K = 0x15;
const RET_K = 0x06;
// linux/seccomp.h: SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO | EPERM (1).
const RET_ALLOW = 0x7fff0000;
const RET_EPERM = 0x00050001;
// struct seccomp_data offsets: nr (0), arch (4), args[0] (16), args[1] (24); low 32 bits first on little-endian.
const OFF_NR = 0;
const OFF_ARCH = 4;
const OFF_ARG0 = 16;
const OFF_ARG1 = 24;
const AF_UNIX = 1;
const SOCK_DGRAM = 2;
/** The socket type without SOCK_NONBLOCK and SOCK_CLOEXEC (linux/net.h SOCK_TYPE_MASK). */
const SOCK_TYPE_MASK = 0xf;
// x32 system calls on x86-64 carry this bit in nr (arch/x86/include/uapi/asm/unistd.h).
const X32_SYSCALL_BIT = 0x40000000;

interface ArchInfo {
  /** AUDIT_ARCH_* from linux/audit.h. */
  audit: number;
  socket: number[];
  socketpair: number[];
  /** io_uring_setup, io_uring_enter, io_uring_register. */
  ioUring: number[];
}

const withX32 = (nrs: number[]): number[] => [...nrs, ...nrs.map((nr) => X32_SYSCALL_BIT | nr)];

const ARCHES: Partial<Record<NodeJS.Architecture, ArchInfo>> = {
  // arch/x86/entry/syscalls/syscall_64.tbl: socket 41, socketpair 53, io_uring_* 425-427.
  x64: { audit: 0xc000003e, socket: withX32([41]), socketpair: withX32([53]), ioUring: withX32([425, 426, 427]) },
  // include/uapi/asm-generic/unistd.h: socket 198, socketpair 199, io_uring_* 425-427.
  arm64: { audit: 0xc00000b7, socket: [198], socketpair: [199], ioUring: [425, 426, 427] },
};

type Insn = [code: number, jt: number, jf: number, k: number];
type Target = 'allow' | 'eperm' | 'socket' | 'socketpair';
/** An instruction whose jumps name a label, resolved once the layout is known. */
type Step = { insn: Insn } | { jeq: number; ifEqual?: Target; ifNot?: Target } | { label: Target };

/**
 * The filter as bwrap's `--seccomp FD` expects it (raw struct sock_filter array), or undefined
 * on architectures it is not written for. Other ABIs on the same machine (i386 on x86-64, arm32
 * on arm64, which reach sockets through socketcall) get EPERM for every call.
 */
export function unixSocketFilter(arch: NodeJS.Architecture = process.arch): Buffer | undefined {
  const info = ARCHES[arch];
  if (info === undefined) return undefined;
  const steps: Step[] = [
    { insn: [LD_W_ABS, 0, 0, OFF_ARCH] },
    { jeq: info.audit, ifNot: 'eperm' },
    { insn: [LD_W_ABS, 0, 0, OFF_NR] },
    ...info.ioUring.map((nr): Step => ({ jeq: nr, ifEqual: 'eperm' })),
    ...info.socket.map((nr): Step => ({ jeq: nr, ifEqual: 'socket' })),
    ...info.socketpair.map((nr): Step => ({ jeq: nr, ifEqual: 'socketpair' })),
    { insn: [RET_K, 0, 0, RET_ALLOW] },
    { label: 'socket' },
    { insn: [LD_W_ABS, 0, 0, OFF_ARG0] },
    { jeq: AF_UNIX, ifEqual: 'eperm', ifNot: 'allow' },
    { label: 'socketpair' },
    { insn: [LD_W_ABS, 0, 0, OFF_ARG1] },
    { insn: [AND_K, 0, 0, SOCK_TYPE_MASK] },
    { jeq: SOCK_DGRAM, ifEqual: 'eperm', ifNot: 'allow' },
    { label: 'eperm' },
    { insn: [RET_K, 0, 0, RET_EPERM] },
    { label: 'allow' },
    { insn: [RET_K, 0, 0, RET_ALLOW] },
  ];
  return encode(assemble(steps));
}

/** Resolves labels to forward jump offsets; classic BPF only jumps forward. */
function assemble(steps: readonly Step[]): Insn[] {
  const at = new Map<Target, number>();
  let n = 0;
  for (const step of steps) {
    if ('label' in step) at.set(step.label, n);
    else n++;
  }
  const out: Insn[] = [];
  for (const step of steps) {
    if ('label' in step) continue;
    if ('insn' in step) {
      out.push(step.insn);
      continue;
    }
    const here = out.length;
    const offset = (target: Target | undefined): number => {
      // No target: fall through to the next instruction.
      if (target === undefined) return 0;
      const to = at.get(target);
      if (to === undefined || to <= here || to - here - 1 > 255) throw new Error(`seccomp filter: no forward jump to ${target}`);
      return to - here - 1;
    };
    out.push([JEQ_K, offset(step.ifEqual), offset(step.ifNot), step.jeq]);
  }
  return out;
}

function encode(insns: readonly Insn[]): Buffer {
  const buf = Buffer.alloc(insns.length * 8);
  insns.forEach(([code, jt, jf, k], i) => {
    buf.writeUInt16LE(code, i * 8);
    buf.writeUInt8(jt, i * 8 + 2);
    buf.writeUInt8(jf, i * 8 + 3);
    buf.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return buf;
}
