// The built-in tools, in the order they are offered to models.
import type { AnyTool } from '../../runtime/tool/types.js';
import { applyPatchTool } from './apply-patch.js';
import { askUserTool } from './ask-user.js';
import { bashTool } from './bash.js';
import { BashJobs } from './bash-jobs.js';
import { bashOutputTool, killShellTool } from './bash-job-tools.js';
import type { BashToolOptions } from './bash.js';
import { editTool } from './edit.js';
import type { FileWriteOptions } from './fs-util.js';
import { globTool } from './glob.js';
import { grepTool } from './grep.js';
import type { GrepToolOptions } from './grep.js';
import { lsTool } from './ls.js';
import { readTool } from './read.js';
import { webFetchTool } from './webfetch.js';
import type { WebFetchToolOptions } from './webfetch.js';
import { writeTool } from './write.js';

export interface BuiltinToolOptions {
  bash?: BashToolOptions;
  grep?: GrepToolOptions;
  webFetch?: WebFetchToolOptions;
  /**
   * Add apply_patch (Codex's patch format). The CLI offers it to OpenAI Responses models only: they
   * were trained on it and get it grammar-constrained; other models edit with Edit and Write.
   */
  applyPatch?: boolean;
  /** Write, Edit and apply_patch: where temp files in flight are recorded (see write-temp.ts). */
  files?: FileWriteOptions;
}

/**
 * Read, Write, Edit, Bash, BashOutput, KillShell, Grep, Glob, LS, WebFetch, AskUserQuestion,
 * apply_patch when asked (ToolSearch is made elsewhere). Bash's background jobs are `bash.jobs`
 * when given (its owner closes them), else a set of their own that ends with the process.
 */
export function builtinTools(options: BuiltinToolOptions = {}): AnyTool[] {
  const jobs = options.bash?.jobs ?? new BashJobs();
  return [
    readTool(),
    writeTool(options.files),
    editTool(options.files),
    bashTool({ ...options.bash, jobs }),
    bashOutputTool(jobs),
    killShellTool(jobs),
    grepTool(options.grep),
    globTool(),
    lsTool(),
    webFetchTool(options.webFetch),
    askUserTool(),
    ...(options.applyPatch ? [applyPatchTool(options.files)] : []),
  ];
}

export {
  applyPatchTool,
  askUserTool,
  BashJobs,
  bashOutputTool,
  bashTool,
  editTool,
  killShellTool,
  globTool,
  grepTool,
  lsTool,
  readTool,
  webFetchTool,
  writeTool,
};
export type { BashToolOptions, FileWriteOptions, GrepToolOptions, WebFetchToolOptions };
