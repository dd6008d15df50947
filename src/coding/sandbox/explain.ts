// Tells the model when a failed command was probably stopped by the sandbox rather than by a
// bug, and how to escalate. Pure: the Bash tool appends the note to a sandboxed result.
import type { SandboxProfile } from './plan.js';

interface Sign {
  pattern: RegExp;
  what: string;
  /** Also a sign when guarded (the host's file system writable, network and sockets as outside). */
  guarded?: true;
  /** Only a sign in the view (contained, confined): elsewhere a missing file is the command's own matter. */
  view?: true;
}

// errno names as printed by Node (err.code), strerror texts as printed by coreutils/libc, and
// the wording of curl (and git, which uses it), wget, Python, Go and npm.
const SIGNS: readonly Sign[] = [
  {
    pattern: /^bwrap: /m,
    what: 'the sandbox itself could not start (bubblewrap reported an error)',
    guarded: true,
  },
  {
    // EBUSY: renaming onto or removing a protected path, which is a mount point in the sandbox.
    pattern: /Read-only file system|\bEROFS\b|Device or resource busy|\bEBUSY\b/,
    what: "a write outside the writable folders (the workspace roots and $TMPDIR) or to a protected path (git's hooks and config files such as .git/hooks, .git/config, .git/commondir; .wield/, .mcp.json) was refused",
    guarded: true,
  },
  {
    // In the view, a file outside the workspace (or a home file, or a program installed there) is absent.
    pattern: /No such file or directory|\bENOENT\b|command not found/,
    what: 'a file or program outside the workspace, the system folders and PATH was not found: a command nobody approved does not see it',
    view: true,
  },
  {
    pattern: /Permission denied|\bEACCES\b/,
    what: 'a read of a hidden secret (such as ~/.ssh, ~/.aws or a .env file) was refused',
  },
  {
    pattern: /Operation not permitted|\bEPERM\b/,
    what: 'an operation was refused: inside the sandbox commands have no capabilities (chown, mount) and cannot open Unix sockets (which lead to services outside, such as Docker or D-Bus)',
  },
  {
    pattern:
      /Network is unreachable|\bENETUNREACH\b|Could not resolve host|Temporary failure in name resolution|\bEAI_AGAIN\b|getaddrinfo ENOTFOUND|Name or service not known/i,
    what: 'the network is off inside the sandbox (except the hosts in sandbox.network.allowedHosts, through the proxy in HTTP_PROXY/HTTPS_PROXY)',
  },
  {
    pattern: /wield sandbox: \S+ is not in sandbox\.network\.allowedHosts/,
    what: "the sandbox's proxy refused a host that is not in sandbox.network.allowedHosts",
  },
  {
    // `curl -f` hides the proxy's body naming the allow-list; HTTPS shows as a refused CONNECT.
    pattern: /returned error: 403|response 403|HTTP code 403|\b403\b[^\n]{0,20}Forbidden|\bE403\b/i,
    what: "an HTTP 403 in the sandbox usually comes from wield's proxy, which refuses hosts that are not in sandbox.network.allowedHosts (an allowed host may also answer 403 itself)",
  },
  {
    // curl 7.88+ says only "Couldn't connect to server"; Go says "connection refused".
    pattern: /Connection refused|\bECONNREFUSED\b|Couldn't connect to server|Failed to establish a new connection/i,
    what: "a connection failed: services on the host's localhost are unreachable (the sandbox has its own private loopback), and other hosts only through the proxy in HTTP_PROXY/HTTPS_PROXY (sandbox.network.allowedHosts), which programs told to skip it (curl --noproxy) do not use",
  },
];

// What a command nobody approved sees: only the workspace, system folders and PATH's programs.
const VIEW =
  'it ran in a view of the machine: the workspace, system folders and the programs on PATH, no home folder (HOME is an empty private folder), no network, secrets hidden; files outside the workspace do not exist there';
const INTRO: Record<SandboxProfile, string> = {
  sandboxed: "This command ran in the sandbox, and the failure looks like the sandbox's doing",
  contained: `This command ran without anyone's approval (proven read-only), so ${VIEW}, and nothing is writable but $TMPDIR. The failure looks like the containment's doing`,
  confined: `This command ran without anyone's approval (a permission mode or a hook allowed it), so ${VIEW}. The failure looks like the containment's doing`,
  guarded:
    "This command ran without anyone's approval, so git's hooks and config files, .wield/, .mcp.json, shell start-up files and ~/.ssh stay read-only. The failure looks like that protection's doing",
};

/**
 * A note for the model when `output` of a failed sandboxed command looks like a sandbox denial;
 * undefined when the command succeeded or nothing points at the sandbox.
 */
export function explainSandboxFailure(output: string, exitCode: number, profile: SandboxProfile = 'sandboxed'): string | undefined {
  // A zero exit with such words in the output is usually data (grep results), not a denial.
  if (exitCode === 0) return undefined;
  const inView = profile === 'contained' || profile === 'confined';
  const signs = SIGNS.filter((sign) => (profile === 'guarded' ? sign.guarded : inView || !sign.view));
  const hits = signs.filter((sign) => sign.pattern.test(output)).map((sign) => sign.what);
  if (hits.length === 0) return undefined;
  return (
    `[sandbox] ${INTRO[profile]}: ${hits.join('; ')}. ` +
    'If the command genuinely needs this access, retry it with "sandbox": false in the Bash input; ' +
    'that run goes through the normal permission decision (the user may be asked, and it is denied when nobody can answer).'
  );
}
