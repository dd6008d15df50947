// What the Bash analyser answers and what it may look up: the shapes its users see. Kept apart
// from the parse-tree shapes (types.ts), so the package's types never reach web-tree-sitter's.

export interface BashAnalysis {
  readOnly: boolean;
  reason: string;
  /** The text of each part, for rules (`parts[i].command`). */
  commands: string[];
  parts: BashPart[];
  parseError?: boolean;
  /** Folders git would run in (each `git` and its `-C`, from every folder the line may be in): their config decides what git runs. */
  gitDirs: string[];
}

/**
 * One part of a command line as rules see it (a simple command, a wrapped or substituted one, or
 * syntax the analyser does not accept), with the analyser's verdict for everything inside it.
 */
export interface BashPart {
  command: string;
  /** Nothing inside the part failed: its words, redirections, substitutions, wrapped commands. */
  readOnly: boolean;
  /** Why it is not read-only. */
  reason?: string;
  /** It may run in the shell itself (a builtin, a keyword, other syntax) and change what later parts see. */
  inShell: boolean;
  /** Other texts deny and ask rules are matched against (see rule-forms.ts); never allow rules. */
  forms?: string[];
  /** Why what it runs could not be read (not parsed, nested too deeply): deny and ask rules cannot be checked. */
  opaque?: string;
  /** It is not read-only and names a credentials file or a secret variable. */
  secret?: boolean;
}

/**
 * What the analyser may look up about the machine at decision time: the file system (symlinks a
 * workspace planted, what a glob matches, config files a program would read) and the environment
 * the command will get. Injected, so every decision stays a pure function of the text and these
 * answers (tests pass a fixed view); host-view.ts is the real one.
 */
export interface DirEntry {
  name: string;
  kind: 'file' | 'dir' | 'link' | 'other';
}

export interface WorkspaceView {
  /** Where a path lands after every symlink on the way (guardPath's walk); undefined when it cannot be known. */
  realPath(absPath: string): string | undefined;
  /** What is at a path, without following a final symlink. */
  kind(absPath: string): 'file' | 'dir' | 'link' | 'other' | undefined;
  /** Entries of a folder (no `.`/`..`), each with what it is; undefined when it is not a readable folder. */
  list(absDir: string): readonly DirEntry[] | undefined;
  /** A variable of the environment the command runs with. */
  env(name: string): string | undefined;
}

/** Where the command runs and what it may touch; the view defaults to the real machine (host-view.ts). */
export interface AnalyzeOptions {
  cwd?: string;
  roots?: string[];
  readDenied?: (absPath: string) => boolean;
  view?: WorkspaceView;
  /**
   * The command will run contained (no home, workspace read-only, secrets masked, no network), so
   * the analyser only decides friction. Without it (the default) only the audited core runs unasked.
   */
  contained?: boolean;
}
