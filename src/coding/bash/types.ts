// Shared shapes of the Bash analyser.
import type { Node } from 'web-tree-sitter';
import type { WorkspaceView } from './analysis.js';

export type { AnalyzeOptions, BashAnalysis, BashPart, DirEntry, WorkspaceView } from './analysis.js';

/** One shell word after quote removal, with what the shell would still do to it at run time. */
export interface Word {
  /** Source text. */
  text: string;
  /** Value after quote and escape removal (expansions left as written). */
  value: string;
  /** An unquoted literal with no escapes: what a command name must be. */
  plain: boolean;
  /** Contains an expansion or substitution: the value is only known at run time. */
  dynamic: boolean;
  /** Is exactly a process substitution (`<(…)`): the value is a /dev/fd path to a pipe. */
  procSub: boolean;
  /** Unquoted glob characters. */
  glob: boolean;
  /** The value as bash matches it against file names: quoted characters are backslash-escaped. */
  pattern: string;
  /** Unquoted glob at the very start, so it may expand to a name that starts with `-`. */
  leadingGlob: boolean;
  /** Unquoted tilde that the shell expands to a home folder. */
  tilde: boolean;
  /** Unquoted brace expansion (`{a,b}`, `{1..3}`): one word becomes several. */
  brace: boolean;
  /** Command and process substitutions inside the word, to analyse as commands. */
  subs: Node[];
  /** Syntax inside the word we do not accept, with why. */
  problem?: string;
}

/** Where relative paths resolve and which folders are the workspace. */
export interface PathScope {
  cwd: string;
  /** Other folders the command may run in at this point (after a `cd` that may or may not have happened). */
  otherCwds?: readonly string[];
  roots: string[];
  /** Files a Read deny rule covers (absolute paths): naming one makes a command not read-only. */
  readDenied?: (absPath: string) => boolean;
  view: WorkspaceView;
  /** Runs contained (see AnalyzeOptions.contained): run-time words and more programs are accepted. */
  contained: boolean;
}
