// Loads web-tree-sitter and the tree-sitter-bash grammar once; parsing is synchronous after that.
import v8 from 'node:v8';
import { Parser, Language, type Tree } from 'web-tree-sitter';
import { shippedFile } from '../../runtime/util/shipped-file.js';

let parser: Parser | undefined;
let loading: Promise<void> | undefined;

/** Idempotent: concurrent callers share one load. */
export function loadBashAnalyzer(): Promise<void> {
  loading ??= (async () => {
    // V8 re-compiles hot WASM with its optimising tier in the background, which costs ~35 MB
    // of peak memory for the grammar and gains nothing measurable for one-line commands
    // (measured: same analysis time, 117 vs 154 MB peak). Only tree-sitter uses WASM here.
    v8.setFlagsFromString('--liftoff-only');
    await Parser.init({ locateFile: (name: string) => shippedFile(name, `web-tree-sitter/${name}`) });
    const language = await Language.load(shippedFile('tree-sitter-bash.wasm', 'tree-sitter-bash/tree-sitter-bash.wasm'));
    const p = new Parser();
    p.setLanguage(language);
    parser = p;
  })().catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

// The build copies both WASM files into dist/ (the grammar's package is 20 MB installed for a
// 1.4 MB file, so it is not a dependency).

export function isLoaded(): boolean {
  return parser !== undefined;
}

/** Parses a script; undefined when the analyser is not loaded or the parser gave up. */
export function parseBash(source: string): Tree | undefined {
  return parser?.parse(source) ?? undefined;
}
