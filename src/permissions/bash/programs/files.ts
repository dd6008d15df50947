// Programs that read the files named by their operands and write only to standard output.
import { checkPath } from '../paths.js';
import { hasOption, type Invocation, type ProgramContext, type ProgramSpec } from '../program.js';

const one = (why: string) => ({ count: 1, why });

/** The list file is checked, but the names in it are not: they may be secrets or outside the workspace. */
const FILES_FROM = 'reads the files named in a list file, which may be any file';

const SUMS: ProgramSpec = {
  short: 'bctwzl:',
  long: ['binary', 'check', 'tag', 'text', 'ignore-missing', 'quiet', 'status', 'strict', 'warn', 'zero', 'length='],
};

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
  cat: { short: 'AbeEnstTuv', long: ['show-all', 'number-nonblank', 'show-ends', 'number', 'squeeze-blank', 'show-tabs', 'show-nonprinting'] },
  tac: { short: 'brs:', long: ['before', 'regex', 'separator='] },
  rev: {},
  head: { numeric: true, short: 'c:n:qvz', long: ['bytes=', 'lines=', 'quiet', 'silent', 'verbose', 'zero-terminated'] },
  tail: {
    numeric: true, short: 'c:n:fFqvzs:',
    long: ['bytes=', 'lines=', 'follow=?', 'retry', 'pid=', 'quiet', 'silent', 'verbose', 'sleep-interval=', 'zero-terminated', 'max-unchanged-stats='],
    alias: { '--follow': '-f' },
    unsafe: { '-f': 'waits for the file to grow and never ends', '-F': 'waits for the file to grow and never ends' },
    // GNU tail still reads an obsolete first option `+NUM[bcl][f]` when at most one file follows.
    check: (inv) => (/^\+\d*[bcl]?f/.test(inv.args[0]?.value ?? '') && inv.args.length <= 2
      ? `\`tail ${inv.args[0].text}\` follows the file and never ends` : undefined),
  },
  wc: {
    short: 'clmwL', long: ['bytes', 'chars', 'lines', 'words', 'max-line-length', 'files0-from=', 'total='],
    unsafe: { '--files0-from': FILES_FROM },
  },
  ls: {
    metadata: true,
    short: 'aAbBcCdDfFgGhHiklLmnNopqQrRsStuUvxXZ1I:T:w:',
    long: [
      'all', 'almost-all', 'author', 'escape', 'block-size=', 'ignore-backups', 'color=?', 'colour=?', 'directory', 'dired',
      'classify=?', 'file-type', 'format=', 'full-time', 'group-directories-first', 'no-group', 'human-readable', 'si',
      'dereference-command-line', 'dereference-command-line-symlink-to-dir', 'hide=', 'hyperlink=?', 'indicator-style=',
      'inode', 'ignore=', 'kibibytes', 'dereference', 'numeric-uid-gid', 'literal', 'hide-control-chars',
      'show-control-chars', 'quote-name', 'quoting-style=', 'reverse', 'recursive', 'size', 'sort=', 'time=',
      'time-style=', 'tabsize=', 'width=', 'context', 'zero',
    ],
  },
  stat: { metadata: true, short: 'Lfc:tZ', long: ['dereference', 'file-system', 'format=', 'printf=', 'terse', 'cached='] },
  file: {
    short: 'bcEhiklLNnprsSvzZ0e:F:m:P:C',
    long: [
      'brief', 'checking-printout', 'exclude=', 'exclude-quiet=', 'files-from=', 'separator=', 'mime', 'mime-type',
      'mime-encoding', 'keep-going', 'list', 'dereference', 'no-dereference', 'magic-file=', 'no-buffer', 'no-pad',
      'print0', 'preserve-date', 'parameter=', 'raw', 'special-files', 'uncompress', 'uncompress-noreport', 'extension',
      'apple', 'compile',
    ],
    alias: { '--compile': '-C', '--magic-file': '-m', '--files-from': '-f', '--uncompress': '-z', '--uncompress-noreport': '-Z' },
    unsafe: {
      '-C': 'writes a compiled magic file',
      '-z': 'runs external decompression programs',
      '-Z': 'runs external decompression programs',
      '-f': FILES_FROM,
    },
    pathOptions: ['-m'],
  },
  du: {
    metadata: true,
    short: 'ab0cDhHkLlmPsSxB:d:t:X:',
    long: [
      'all', 'apparent-size', 'block-size=', 'bytes', 'total', 'dereference-args', 'max-depth=', 'human-readable',
      'inodes', 'si', 'summarize', 'threshold=', 'time=?', 'time-style=', 'exclude=', 'exclude-from=',
      'one-file-system', 'files0-from=', 'count-links', 'dereference', 'no-dereference', 'separate-dirs', 'null',
    ],
    alias: { '--exclude-from': '-X' },
    pathOptions: ['-X', '--files0-from'],
  },
  // df reports the file system holding each operand, never the file itself.
  df: {
    operands: 'data',
    short: 'ahHiklmPTt:x:B:',
    long: ['all', 'block-size=', 'human-readable', 'si', 'inodes', 'local', 'output=?', 'portability', 'print-type', 'type=', 'exclude-type=', 'total', 'sync', 'no-sync'],
  },
  realpath: {
    metadata: true,
    short: 'emLPqsz',
    long: ['canonicalize-existing', 'canonicalize-missing', 'logical', 'physical', 'quiet', 'relative-to=', 'relative-base=', 'strip', 'no-symlinks', 'zero'],
    pathOptions: ['--relative-to', '--relative-base'],
  },
  readlink: { metadata: true, short: 'efmnqsvz', long: ['canonicalize', 'canonicalize-existing', 'canonicalize-missing', 'no-newline', 'quiet', 'silent', 'verbose', 'zero'] },
  sha1sum: SUMS, sha224sum: SUMS, sha256sum: SUMS, sha384sum: SUMS, sha512sum: SUMS, md5sum: SUMS, b2sum: SUMS,
  cksum: { short: 'a:cl:w', long: ['algorithm=', 'base64', 'check', 'length=', 'raw', 'tag', 'untagged', 'ignore-missing', 'quiet', 'status', 'strict', 'warn', 'zero', 'debug'] },
  cut: {
    short: 'b:c:d:f:nsz',
    long: ['bytes=', 'characters=', 'delimiter=', 'fields=', 'complement', 'only-delimited', 'output-delimiter=', 'zero-terminated'],
  },
  sort: {
    short: 'bcCdfghik:mMno:rRsS:t:T:uVz',
    long: [
      'ignore-leading-blanks', 'dictionary-order', 'ignore-case', 'general-numeric-sort', 'ignore-nonprinting',
      'month-sort', 'human-numeric-sort', 'numeric-sort', 'random-sort', 'random-source=', 'reverse', 'sort=',
      'version-sort', 'batch-size=', 'check=?', 'compress-program=', 'debug', 'files0-from=', 'key=', 'merge',
      'output=', 'stable', 'buffer-size=', 'field-separator=', 'temporary-directory=', 'parallel=', 'unique',
      'zero-terminated',
    ],
    alias: { '--output': '-o', '--temporary-directory': '-T' },
    unsafe: {
      '-o': 'writes its output to a file',
      '--compress-program': 'runs a program to compress temporary files',
      '-T': 'writes temporary files to a chosen folder',
      '--files0-from': FILES_FROM,
    },
    pathOptions: ['--random-source'],
  },
  uniq: {
    short: 'cdDf:is:uw:z',
    long: ['count', 'repeated', 'all-repeated=?', 'skip-fields=', 'ignore-case', 'skip-chars=', 'unique', 'zero-terminated', 'check-chars=', 'group=?'],
    maxOperands: one('a second operand is an output file'),
  },
  comm: { short: '123z', long: ['check-order', 'nocheck-order', 'output-delimiter=', 'total', 'zero-terminated'] },
  diff: {
    short: 'abBcdeEfiIlnNpqrsStTuwyZC:D:F:I:L:S:U:W:x:X:',
    long: [
      'normal', 'brief', 'report-identical-files', 'context=?', 'unified=?', 'ed', 'rcs', 'side-by-side', 'width=',
      'left-column', 'suppress-common-lines', 'show-c-function', 'show-function-line=', 'label=', 'expand-tabs',
      'initial-tab', 'tabsize=', 'suppress-blank-empty', 'paginate', 'recursive', 'no-dereference', 'new-file',
      'unidirectional-new-file', 'ignore-file-name-case', 'no-ignore-file-name-case', 'exclude=', 'exclude-from=',
      'starting-file=', 'from-file=', 'to-file=', 'ignore-case', 'ignore-tab-expansion', 'ignore-trailing-space',
      'ignore-space-change', 'ignore-all-space', 'ignore-blank-lines', 'ignore-matching-lines=', 'text',
      'strip-trailing-cr', 'minimal', 'horizon-lines=', 'speed-large-files', 'color=?', 'palette=', 'line-format=',
      'old-line-format=', 'new-line-format=', 'unchanged-line-format=', 'old-group-format=', 'new-group-format=',
      'unchanged-group-format=', 'changed-group-format=', 'ifdef=',
    ],
    alias: { '--exclude-from': '-X' },
    pathOptions: ['-X', '--from-file', '--to-file'],
  },
  cmp: { short: 'bi:ln:sz', long: ['print-bytes', 'ignore-initial=', 'verbose', 'bytes=', 'quiet', 'silent'], maxOperands: { count: 4, why: 'too many operands' } },
  nl: {
    short: 'b:d:f:h:i:l:n:ps:v:w:',
    long: ['body-numbering=', 'section-delimiter=', 'footer-numbering=', 'header-numbering=', 'line-increment=', 'join-blank-lines=', 'number-format=', 'no-renumber', 'number-separator=', 'starting-line-number=', 'number-width='],
  },
  fold: { short: 'bsw:', long: ['bytes', 'spaces', 'width='] },
  fmt: { short: 'cp:stuw:g:', long: ['crown-margin', 'prefix=', 'split-only', 'tagged-paragraph', 'uniform-spacing', 'width=', 'goal='] },
  expand: { short: 'it:', long: ['initial', 'tabs='] },
  unexpand: { short: 'at:', long: ['all', 'first-only', 'tabs='] },
  paste: { short: 'd:sz', long: ['delimiters=', 'serial', 'zero-terminated'] },
  join: { short: 'a:e:ij:o:t:v:z1:2:', long: ['ignore-case', 'check-order', 'nocheck-order', 'header', 'zero-terminated'] },
  column: { short: 'c:o:s:tnx', long: ['columns=', 'output-separator=', 'separator=', 'table', 'fillrows'] },
  od: {
    short: 'A:bcdfij:lN:osS:t:vw::x',
    long: ['address-radix=', 'skip-bytes=', 'read-bytes=', 'format=', 'output-duplicates', 'strings=?', 'width=?', 'endian=', 'traditional'],
  },
  hexdump: {
    short: 'bcCdoxe:f:n:s:vL::',
    long: ['one-byte-octal', 'one-byte-char', 'canonical', 'two-bytes-decimal', 'two-bytes-octal', 'two-bytes-hex', 'format=', 'format-file=', 'length=', 'skip=', 'no-squeezing', 'color=?'],
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
    short: 'diw:o:', long: ['decode', 'ignore-garbage', 'wrap=', 'output='],
    alias: { '--output': '-o' },
    unsafe: { '-o': 'writes its output to a file' },
    maxOperands: one('takes one input file'),
  },
  zcat: { short: 'fhlLqrStvV', long: ['force', 'list', 'quiet', 'recursive', 'test', 'verbose'] },
  gzip: {
    short: 'cdfhklLnNqrStvV123456789S:',
    long: ['stdout', 'to-stdout', 'decompress', 'uncompress', 'force', 'keep', 'list', 'no-name', 'name', 'quiet', 'recursive', 'suffix=', 'test', 'verbose', 'fast', 'best', 'rsyncable'],
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
  tree: {
    metadata: true,
    short: 'adfgilpsuxACDFhJnrtvUQNSqL:P:I:o:',
    long: ['noreport', 'dirsfirst', 'gitignore', 'prune', 'du', 'sort=', 'matchdirs', 'ignore-case', 'charset=', 'filelimit=', 'timefmt=', 'metafirst'],
    unsafe: { '-o': 'writes its output to a file' },
  },
};
