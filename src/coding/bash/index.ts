// Bash command analysis: is a command line read-only, which simple commands does it contain,
// and does a permission rule's command pattern match one of them.
export type { BashAnalysis } from './types.js';
export { loadBashAnalyzer, isLoaded as isBashAnalyzerLoaded } from './parser.js';
export { analyzeBash } from './analyze.js';
export { matchBashRule } from './rule.js';
export { isKnownProgram } from './command.js';
