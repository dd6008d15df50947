// Bash command analysis: is a command line read-only, which simple commands does it contain,
// and does a permission rule's command pattern match one of them.
//
// The functions are re-exported with their types written out, so the package's declaration files
// stop here and at analysis.ts: the parser's modules name web-tree-sitter's types, whose own
// declarations need Emscripten's global types a user does not have (skipLibCheck: false).
import { analyzeBash as analyze } from './analyze.js';
import { isKnownProgram as knownProgram } from './command.js';
import { isLoaded, loadBashAnalyzer as load } from './parser.js';
import { matchBashRule as matchRule } from './rule.js';
import type { AnalyzeOptions, BashAnalysis } from './analysis.js';

export type { AnalyzeOptions, BashAnalysis, BashPart, DirEntry, WorkspaceView } from './analysis.js';
/** Loads the parser's WASM once (~40–60 ms); analyses before it finish as "not read-only". */
export const loadBashAnalyzer: () => Promise<void> = load;
export const isBashAnalyzerLoaded: () => boolean = isLoaded;
export const analyzeBash: (command: string, options?: AnalyzeOptions) => BashAnalysis = analyze;
/** Does a rule's command pattern (`npm run test:*`, `git diff *`) match a command? */
export const matchBashRule: (pattern: string, command: string) => boolean = matchRule;
export const isKnownProgram: (name: string) => boolean = knownProgram;
