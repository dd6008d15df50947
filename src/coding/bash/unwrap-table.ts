// What rule-forms.ts needs to know about programs that run another command, and about programs
// that take global options before their subcommand. Option strings are written as getopt's (see
// getopt.ts): `u:` takes a value, `i::` an optional attached one; long `name=` takes a value.
// Options not listed are read both ways (a flag, or taking the next word), so a table that is
// out of date makes more forms, never fewer.
import { XARGS } from './programs/wrappers.js';

export interface OptionTable {
  short?: string;
  long?: readonly string[];
  /** Words starting with `+` are options too (`bash +o posix`, `cargo +nightly`). */
  plus?: boolean;
}

export interface Wrapper extends OptionTable {
  /**
   * What follows the options: a command's argv, words joined into a script (eval, watch), or
   * a shell whose `-c` makes the first operand a script.
   */
  runs: 'argv' | 'joined' | 'shell';
  /** Operands before the command (timeout's duration). */
  skip?: number;
  /** `NAME=value` operands before the command (env). */
  assignments?: boolean;
  /** Options whose value is a command line (env -S). */
  scriptOptions?: readonly string[];
  /** An option cluster that means the command is only looked up, not run (`command -v`). */
  lookupOnly?: RegExp;
}

const SHELL: Wrapper = {
  runs: 'shell',
  plus: true,
  short: 'abcefhiklmnprstuvxBCDEHPTo:O:',
  long: [
    'rcfile=',
    'init-file=',
    'norc',
    'noprofile',
    'login',
    'posix',
    'restricted',
    'verbose',
    'debugger',
    'noediting',
    'help',
    'version',
  ],
};

export const WRAPPERS: ReadonlyMap<string, Wrapper> = new Map(
  Object.entries({
    nohup: { runs: 'argv' },
    builtin: { runs: 'argv' },
    exec: { runs: 'argv', short: 'a:cl' },
    command: { runs: 'argv', short: 'pvV', lookupOnly: /^-[a-zA-Z]*[vV]/ },
    // `-h` is help alone and a host with a value: left out, so read both ways.
    sudo: {
      runs: 'argv',
      short: 'AbBEeHiKklnPSsVvC:D:g:p:R:r:t:T:U:u:',
      long: [
        'user=',
        'group=',
        'chdir=',
        'chroot=',
        'close-from=',
        'host=',
        'prompt=',
        'role=',
        'type=',
        'command-timeout=',
        'other-user=',
        'preserve-env=?',
        'askpass',
        'background',
        'bell',
        'edit',
        'login',
        'list',
        'non-interactive',
        'preserve-groups',
        'remove-timestamp',
        'reset-timestamp',
        'set-home',
        'shell',
        'stdin',
        'validate',
      ],
    },
    doas: { runs: 'argv', short: 'nsLu:C:' },
    env: {
      runs: 'argv',
      assignments: true,
      short: 'i0vu:C:S:',
      long: [
        'ignore-environment',
        'null',
        'debug',
        'unset=',
        'chdir=',
        'split-string=',
        'ignore-signal=?',
        'default-signal=?',
        'block-signal=?',
        'list-signal-handling',
      ],
      scriptOptions: ['-S', '--split-string'],
    },
    nice: { runs: 'argv', short: 'n:', long: ['adjustment='] },
    ionice: { runs: 'argv', short: 'c:n:p:P:u:t', long: ['class=', 'classdata=', 'pid=', 'pgid=', 'uid=', 'ignore'] },
    timeout: { runs: 'argv', skip: 1, short: 'k:s:v', long: ['kill-after=', 'signal=', 'preserve-status', 'foreground', 'verbose'] },
    time: { runs: 'argv', short: 'f:o:apqv', long: ['format=', 'output=', 'append', 'portability', 'quiet', 'verbose'] },
    stdbuf: { runs: 'argv', short: 'i:o:e:', long: ['input=', 'output=', 'error='] },
    setsid: { runs: 'argv', short: 'cfw', long: ['ctty', 'fork', 'wait'] },
    // The analyser's table (which refuses --process-slot-var), plus that option: here it only
    // has to be skipped to find the command.
    xargs: { runs: 'argv', short: XARGS.short, long: [...(XARGS.long ?? []), 'process-slot-var='] },
    eval: { runs: 'joined' },
    // watch runs its words through `sh -c` (or directly with -x, the same commands).
    watch: {
      runs: 'joined',
      short: 'bcCd::eghn:ptwxq',
      long: [
        'beep',
        'color',
        'no-color',
        'differences=?',
        'errexit',
        'chgexit',
        'interval=',
        'precise',
        'no-title',
        'no-wrap',
        'exec',
        'no-rerun',
      ],
    },
    sh: SHELL,
    bash: SHELL,
    dash: SHELL,
    ksh: SHELL,
    zsh: SHELL,
  }),
);

/**
 * Programs with global options before a subcommand: a rule written `git push *` speaks about
 * `git -C dir --no-pager push` as well.
 */
export const GLOBAL_OPTIONS: ReadonlyMap<string, OptionTable> = new Map(
  Object.entries({
    git: {
      short: 'C:c:pPhv',
      long: [
        'git-dir=',
        'work-tree=',
        'namespace=',
        'super-prefix=',
        'config-env=',
        'attr-source=',
        'exec-path=?',
        'list-cmds=?',
        'paginate',
        'no-pager',
        'bare',
        'no-replace-objects',
        'no-lazy-fetch',
        'literal-pathspecs',
        'glob-pathspecs',
        'noglob-pathspecs',
        'icase-pathspecs',
        'no-optional-locks',
        'no-advice',
        'html-path',
        'man-path',
        'info-path',
        'version',
        'help',
      ],
    },
    npm: {
      short: 'C:w:gsqdyfv',
      long: [
        'prefix=',
        'registry=',
        'userconfig=',
        'globalconfig=',
        'cache=',
        'loglevel=',
        'workspace=',
        'location=',
        'global',
        'silent',
        'quiet',
        'verbose',
        'yes',
        'json',
        'force',
        'workspaces',
      ],
    },
    docker: {
      short: 'H:c:l:Dv',
      long: ['host=', 'context=', 'config=', 'log-level=', 'tlscacert=', 'tlscert=', 'tlskey=', 'debug', 'tls', 'tlsverify'],
    },
    kubectl: {
      short: 'n:s:v:',
      long: [
        'namespace=',
        'context=',
        'kubeconfig=',
        'cluster=',
        'user=',
        'server=',
        'token=',
        'as=',
        'as-group=',
        'request-timeout=',
        'cache-dir=',
        'certificate-authority=',
        'client-certificate=',
        'client-key=',
        'insecure-skip-tls-verify',
        'match-server-version',
      ],
    },
    cargo: { plus: true, short: 'C:Z:vq', long: ['config=', 'color=', 'locked', 'offline', 'frozen', 'verbose', 'quiet'] },
  }),
);
