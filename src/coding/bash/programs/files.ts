// Programs that read the files named by their operands and write only to standard output: print,
// page through, dump and decompress to the terminal. What files are (file-info.ts) and text tools
// (text.ts) are beside this one.
import { checkPath } from '../paths.js';
import { hasOption, type Invocation, type ProgramContext, type ProgramSpec } from '../program.js';

/** An operand limit of one, with the reason a second is refused. */
export const one = (why: string) => ({ count: 1, why });

/** The list file is checked, but the names in it are not: they may be secrets or outside the workspace. */
export const FILES_FROM = 'reads the files named in a list file, which may be any file';

/** xxd options that take a value; any other known letter is a flag. */
const XXD_VALUE = new Set(['c', 'g', 'l', 'n', 'o', 's', 'R']);
const XXD_FLAG = new Set(['a', 'b', 'C', 'E', 'e', 'i', 'p', 'r', 'u', 'v', 'd', 'h']);

/**
 * xxd's own parser: options end at the first operand, each option is known by its first letter
 * (`-ps` is -postscript, `-include` is -i, `--len` is -l), and a second operand is the output
 * file. A value is taken from the next argument only for a bare `-c`; xxd also does so for long
 * spellings (`-cols 8`), which then count as an extra operand here, the stricter reading.
 */
function checkXxd(inv: Invocation, ctx: ProgramContext): string | undefined {
  const args = inv.args;
  let i = 0;
  for (; i < args.length; i++) {
    const v = args[i].value;
    if (v === '--') {
      i++;
      break;
    }
    if (v === '-' || !v.startsWith('-')) break;
    const body = v.startsWith('--') ? v.slice(2) : v.slice(1);
    const letter = body[0] ?? '';
    if (XXD_VALUE.has(letter)) {
      if (body.length === 1) i++;
    } else if (!XXD_FLAG.has(letter)) {
      return `xxd: \`${v}\` is an option the analyser does not know`;
    }
  }
  const files = args.slice(i);
  if (files.length > 1) return '`xxd`: a second operand is an output file';
  return files[0] && checkPath(files[0], ctx.scope);
}

export const FILES: Record<string, ProgramSpec> = {
  cat: {
    short: 'AbeEnstTuv',
    long: ['show-all', 'number-nonblank', 'show-ends', 'number', 'squeeze-blank', 'show-tabs', 'show-nonprinting'],
  },
  tac: { short: 'brs:', long: ['before', 'regex', 'separator='] },
  rev: {},
  head: { numeric: true, short: 'c:n:qvz', long: ['bytes=', 'lines=', 'quiet', 'silent', 'verbose', 'zero-terminated'] },
  tail: {
    numeric: true,
    short: 'c:n:fFqvzs:',
    long: [
      'bytes=',
      'lines=',
      'follow=?',
      'retry',
      'pid=',
      'quiet',
      'silent',
      'verbose',
      'sleep-interval=',
      'zero-terminated',
      'max-unchanged-stats=',
    ],
    alias: { '--follow': '-f' },
    unsafe: { '-f': 'waits for the file to grow and never ends', '-F': 'waits for the file to grow and never ends' },
    // GNU tail still reads an obsolete first option `+NUM[bcl][f]` when at most one file follows.
    check: (inv) =>
      /^\+\d*[bcl]?f/.test(inv.args[0]?.value ?? '') && inv.args.length <= 2
        ? `\`tail ${inv.args[0].text}\` follows the file and never ends`
        : undefined,
  },
  wc: {
    short: 'clmwL',
    long: ['bytes', 'chars', 'lines', 'words', 'max-line-length', 'files0-from='],
    unsafe: { '--files0-from': FILES_FROM },
  },
  od: {
    short: 'A:bcdfij:lN:osS:t:vw::x',
    long: [
      'address-radix=',
      'skip-bytes=',
      'read-bytes=',
      'format=',
      'output-duplicates',
      'strings=?',
      'width=?',
      'endian=',
      'traditional',
    ],
  },
  hexdump: {
    short: 'bcCdoxe:f:n:s:vL::',
    long: [
      'one-byte-octal',
      'one-byte-char',
      'canonical',
      'two-bytes-decimal',
      'two-bytes-octal',
      'two-bytes-hex',
      'format=',
      'format-file=',
      'length=',
      'skip=',
      'no-squeezing',
      'color=?',
    ],
    alias: { '--format-file': '-f' },
    pathOptions: ['-f'],
  },
  strings: {
    short: 'adfn:t:e:ws:T:',
    long: ['all', 'data', 'print-file-name', 'bytes=', 'radix=', 'encoding=', 'include-all-whitespace', 'output-separator=', 'target='],
    // binutils reads more arguments (options, files anywhere) from `@file`.
    check: (inv) => {
      const at = inv.args.find((w) => w.value.startsWith('@'));
      return at ? `\`strings ${at.text}\` reads more arguments from a file` : undefined;
    },
  },
  xxd: { noOptions: true, operands: 'data', check: checkXxd },
  base64: {
    short: 'diw:o:',
    long: ['decode', 'ignore-garbage', 'wrap=', 'output='],
    alias: { '--output': '-o' },
    unsafe: { '-o': 'writes its output to a file' },
    maxOperands: one('takes one input file'),
  },
  zcat: { short: 'fhlLqrtvVS:', long: ['force', 'list', 'quiet', 'recursive', 'test', 'verbose'] },
  gzip: {
    short: 'cdfhklLnNqrtvV123456789S:',
    long: [
      'stdout',
      'to-stdout',
      'decompress',
      'uncompress',
      'force',
      'keep',
      'list',
      'no-name',
      'name',
      'quiet',
      'recursive',
      'suffix=',
      'test',
      'verbose',
      'fast',
      'best',
      'rsyncable',
    ],
    alias: { '--stdout': '-c', '--to-stdout': '-c', '--list': '-l', '--test': '-t' },
    check: (inv) => (hasOption(inv, '-c', '-l', '-t') ? undefined : 'compresses or decompresses files in place'),
  },
  unzip: {
    short: 'lvtZpqzd:',
    unsafe: { '-d': 'extracts into a folder' },
    check: (inv) => (hasOption(inv, '-l', '-v', '-t', '-Z', '-p', '-z') ? undefined : 'extracts files'),
    // The first operand is the archive; the rest are member names inside it.
    paths: (inv) => inv.operands.slice(0, 1),
  },
};
