// The built-in tools, in the order they are offered to models.
import type { AnyTool } from '../../runtime/tool/types.js';
import { askUserTool } from './ask-user.js';
import { bashTool } from './bash.js';
import type { BashToolOptions } from './bash.js';
import { editTool } from './edit.js';
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
}

/** Read, Write, Edit, Bash, Grep, Glob, LS, WebFetch, AskUserQuestion (ToolSearch is made elsewhere). */
export function builtinTools(options: BuiltinToolOptions = {}): AnyTool[] {
  return [
    readTool(),
    writeTool(),
    editTool(),
    bashTool(options.bash),
    grepTool(options.grep),
    globTool(),
    lsTool(),
    webFetchTool(options.webFetch),
    askUserTool(),
  ];
}

export { askUserTool, bashTool, editTool, globTool, grepTool, lsTool, readTool, webFetchTool, writeTool };
export type { BashToolOptions, GrepToolOptions, WebFetchToolOptions };
