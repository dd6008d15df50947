// jq: reads JSON files and prints; its own argument parser (main.c), not getopt. Short options
// bundle (`-nr`), long ones match exactly, `--arg`/`--argjson` take two words, `-L` takes the rest
// of the word or the next one. What jq can reach beyond its input files: the environment (`env`,
// `$ENV`), files named in options (`--rawfile`, `--slurpfile`, `-f`, modules through `-L`,
// `import`/`include`), and paths (`input_filename`, the `get_*_origin` builtins), so those are refused.
import { checkPath } from '../paths.js';
import type { Invocation, ProgramContext, ProgramSpec } from '../program.js';

const FLAG_LETTERS = new Set('ncesrRjaCMShV');
const LONG_FLAGS = new Set([
  'null-input',
  'compact-output',
  'exit-status',
  'slurp',
  'raw-output',
  'raw-input',
  'join-output',
  'ascii-output',
  'color-output',
  'monochrome-output',
  'sort-keys',
  'tab',
  'seq',
  'stream',
  'unbuffered',
  'args',
  'jsonargs',
  'version',
  'help',
]);
/** Options with their number of value words. */
const LONG_VALUES: Record<string, number> = { arg: 2, argjson: 2, indent: 1 };
const REFUSED: Record<string, string> = {
  f: 'reads the program from a file',
  'from-file': 'reads the program from a file',
  L: 'loads modules from a folder',
  'library-path': 'loads modules from a folder',
  rawfile: 'reads a file named in the option',
  slurpfile: 'reads a file named in the option',
  'run-tests': 'runs the programs in a test file',
};

/** Builtins and variables that reach the environment, other files or their paths. */
const REACHING = new Set([
  'env',
  '$ENV',
  'input_filename',
  'import',
  'include',
  'modulemeta',
  'get_search_list',
  'get_prog_origin',
  'get_jq_origin',
  '$__prog_args',
]);
const IDENTIFIER = /\$?[A-Za-z_][A-Za-z0-9_]*/g;

function checkJq(inv: Invocation, ctx: ProgramContext): string | undefined {
  const args = inv.args;
  const positional = [];
  let stringArgs = false;
  for (let i = 0; i < args.length; i++) {
    const v = args[i].value;
    if (v === '-' || !v.startsWith('-')) {
      positional.push(args[i]);
      continue;
    }
    if (v === '--') return '`jq --` is read differently by jq versions';
    const long = v.startsWith('--') ? v.slice(2) : undefined;
    const refused = REFUSED[long ?? v[1]];
    if (refused) return `\`jq ${v}\` ${refused}`;
    if (long !== undefined) {
      if (long === 'args' || long === 'jsonargs') stringArgs = true;
      if (LONG_FLAGS.has(long)) continue;
      const count = LONG_VALUES[long];
      if (count === undefined || i + count >= args.length) return `jq: \`${v}\` is an option the analyser does not know`;
      i += count;
      continue;
    }
    // jq finds each short option anywhere in the word; any other letter ends it with an error.
    if ([...v.slice(1)].some((c) => !FLAG_LETTERS.has(c) && !REFUSED[c])) return `jq: \`${v}\` is an option the analyser does not know`;
    const refusedLetter = [...v.slice(1)].find((c) => REFUSED[c]);
    if (refusedLetter) return `\`jq -${refusedLetter}\` ${REFUSED[refusedLetter]}`;
  }
  const [program, ...files] = positional;
  if (!program) return undefined;
  const reaching = program.value.match(IDENTIFIER)?.find((id) => REACHING.has(id));
  if (reaching) return `the jq program uses \`${reaching}\`, which reads the environment or other files`;
  if (stringArgs) return undefined;
  for (const file of files) {
    const problem = checkPath(file, ctx.scope);
    if (problem) return problem;
  }
  return undefined;
}

export const JQ: Record<string, ProgramSpec> = { jq: { noOptions: true, operands: 'data', check: checkJq } };
