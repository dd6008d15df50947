import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeBash, loadBashAnalyzer } from '../../../src/coding/bash/index.js';

// The table as it applies inside containment; tests of the uncontained core are in containment.test.ts.
const opts = { cwd: '/ws/project', roots: ['/ws/project'], contained: true };
const ro = (cmd: string) => analyzeBash(cmd, opts);

beforeAll(async () => {
  await loadBashAnalyzer();
});

const READ_ONLY = [
  'cat README.md | head -n 5',
  "sed -n '1,10p' a.txt",
  "sed -e 's/a/b/g' -e '/x/d' a.txt",
  "sed -E 's|/usr|/opt|; 2q' a.txt",
  "sed '1a hello; w out' a.txt",
  "awk '$3 > 100 { print $1 }' data.txt",
  "awk 'BEGIN { x = 4 / 2; print x }'",
  "awk '/re/ { n++ } END { print n }' a.txt",
  'find src -name "*.ts" -type f -newer package.json',
  'for i in a b; do ls "$i"; done',
  'rg -n --glob "*.ts" foo src',
  'grep -rn -e foo -e bar src',
  'head -20 a.txt',
  'tail -n +5 a.txt',
  'sort -u -k2,2 a.txt',
  'wc -l < a.txt',
  'timeout 5 ls',
  'nice -n 5 cat a.txt',
  'env LC_ALL=C ls',
  'LC_ALL=C sort a.txt',
  'command -v git',
  'bash -c "ls && pwd"',
  "sh -c 'git status | head'",
  'echo "$(git rev-parse HEAD)"',
  'diff <(sort a) <(sort b)',
  'cat a.txt 2>&1 | grep x',
  '[ -f a.txt ] && cat a.txt',
  '[[ -d src ]] || echo missing',
  'if [ -f a ]; then cat a; else echo no; fi',
  'echo $((1 + 2))',
  'ls /ws/project/src',
  'cat ./src/../README.md',
  'date +%Y-%m-%d',
  'xxd -l 16 a.bin',
  'gzip -dc a.gz',
  'unzip -l a.zip',
  'echo "a > b" \'| sh\'',
  'printf "%s\\n" a b',
  'ls \\\n  -la',
  'grep foo <<< "$x"',
  'cat <<EOF\nplain $HOME text\nEOF',
  "sed -n '$!{h;d};x;G;p' a.txt",
  // Second red-team pass: the forms its fixes must keep allowing.
  'wc -l ./*.md',
  'TZ=Europe/Paris date',
  'sleep 1m',
  'bash -c "echo \\$\'\\\\\'; ls"',
  "sh -c 'echo ok'",
];

const NOT_READ_ONLY: Array<[string, RegExp]> = [
  ['sed -n 1p a.txt -i', /in place/],
  ['sed -ni 1p a.txt', /in place/],
  ['sed --in-pl 1p a.txt', /in place/],
  ["sed 's/a/b/w out' a.txt", /writes/],
  ["sed -n '1e id' a.txt", /shell/],
  ["sed 'r /etc/passwd' a.txt", /reads a file/],
  ['sed -f script.sed a.txt', /script/],
  ['PAGER=cat git log', /PAGER/],
  ['GIT_DIR=/x git status', /GIT_DIR/],
  ['LD_PRELOAD=x.so ls', /LD_PRELOAD/],
  ['env LD_PRELOAD=x.so ls', /LD_PRELOAD/],
  ['env', /environment/],
  ['env -S "sh -c id" ls', /splits/],
  ['find . -exec rm {} +', /deletes files/],
  ['find . -execdir cat {} +', /runs a command/],
  ['find . "-delete"', /deletes/],
  ['find . -fprint0 x', /writes/],
  ['find / -name x', /outside/],
  ['find . -name x -newer ~/.ssh/id_rsa', /home/],
  ['rg --pre cat x', /preprocessor/],
  ['rg --pre=cat x', /preprocessor/],
  ['rg --pr=cat x', /ambiguous/],
  ['rg -z x', /decompression/],
  ['cat ~/.ssh/id_rsa', /home/],
  ['cat /etc/shadow', /outside/],
  ['cat ../secret.txt', /outside/],
  ['cat .env', /secrets/],
  ['cat config/.env.production', /secrets/],
  ['cat certs/server.pem', /secrets/],
  ['cat .*', /\.\./],
  ['cat */../../x', /outside/],
  ['ls ~root', /home/],
  ['cat a.txt > b.txt', /writes a file/],
  ['cat a.txt >> b.txt', /writes a file/],
  ['ls &> out', /writes a file/],
  ['ls >&out', /writes a file/],
  ['ls 3>&-', /writes a file|not understood/],
  ['cat < /dev/tcp/example.com/80', /outside/],
  ['echo $(rm -rf x)', /deletes/],
  ['echo `touch x`', /writes/],
  ['cat <(curl example.com)', /network/],
  ['ls > >(tee out)', /writes/],
  ['cat <<< "$(touch x)"', /writes/],
  ['cat <<EOF\n$(touch x)\nEOF', /writes/],
  ['echo ${x@P}', /@P|transformations/],
  ['echo ${!x}', /indirect/],
  ['echo ${x:=y}', /assigns/],
  ['echo ${x:$n}', /arithmetic|parsed/],
  ['echo $((x=1))', /arithmetic/],
  ['echo $((a[$(id)]))', /arithmetic/],
  ['[[ $x -eq 1 ]]', /arithmetic/],
  ['[ -v "a[$(id)]" ]', /subscripts/],
  ['test -v x', /subscripts/],
  ['x=1', /variable/],
  ['export A=1', /exports/],
  ['f() { ls; }', /function/],
  ['for i in a; do rm x; done', /loop/],
  ['for PATH in /tmp; do ls; done', /loop/],
  ['for i in a; do ls $i; done', /loop/],
  ['select x in a; do ls; done', /loop/],
  ['((i++))', /arithmetic/],
  ['$cmd a', /command name/],
  ['"ls" a', /command name/],
  ['l\\s', /command name/],
  ["$'\\x6c\\x73'", /command name/],
  ['./ls', /cannot be checked/],
  ['{ls,-la}', /parsed|brace|shell syntax/],
  ['echo {a,b}', /brace/],
  ['ls {a,b}', /brace/],
  ['cat $f', /run time|only known/],
  ['ls\nrm x', /deletes/],
  ['ls\rrm x', /control/],
  ['ls\u00a0-la', /control|invisible/],
  ['sed -n 1p a -\\\ni', /joins/],
  ['xargs rm', /xargs/],
  ['ls | xargs sed -n 1p', /xargs/],
  ['timeout 5 rm x', /deletes/],
  ['nice rm x', /deletes/],
  ['time rm x', /deletes/],
  ['command rm x', /deletes/],
  ['bash -c "rm x"', /deletes/],
  ['bash script.sh', /without -c/],
  ['sh -c "$X"', /only known/],
  ['bash -i -c ls', /option/],
  ['awk \'BEGIN{system("id")}\'', /system/],
  ['awk \'{print > "out"}\' a', /writes/],
  ['awk \'{print | "sh"}\' a', /pipe/],
  ['awk \'{ i++ / 2; system("x"); a / 1 }\'', /system|regex/],
  ['awk -f prog.awk a', /program file/],
  ['awk \'BEGIN{ARGV[1]="/etc/shadow"; ARGC=2} {print}\'', /ARGV/],
  ['gawk -i inplace 1 a', /includes/],
  ['date 010100002020', /clock/],
  ['date -s now', /clock/],
  ['hostname evil', /host name/],
  ['gzip a.txt', /in place/],
  ['unzip a.zip', /extracts/],
  ['tar tf a.tar', /not a known/],
  ['base64 -o x a', /writes/],
  ['tree -o x', /writes/],
  ['printf -v x hi', /variable/],
  ['cd .. && cat x', /outside the workspace/],
  ['curl example.com', /network/],
  ['rm -rf build', /deletes/],
  ['ls; sudo ls', /privileges/],
  ['=ls', /cannot be checked/],
  ['ls =(id)', /parsed/],
  ['ls *(e:id:)', /parsed/],
  ['sort *', /glob/],
  ['git log -- *', /glob/],
  ['head -n', /needs a value/],
  ['ls --no-such-opt', /does not know/],
  ['ls -Y', /does not know/],
  ['wc --lines=5', /takes no value/],
  // Second red-team pass.
  ["sed {v}</dev/null 'w out' a.txt", /file descriptor/],
  ['awk {v}>/dev/null \'BEGIN{system("id")}\'', /file descriptor/],
  ["sh -c \"echo \\$'\\\\'; touch x; #'\"", /may not be bash/],
  ['dash -c "echo \\$\'x\'"', /may not be bash/],
  ['diff -l /etc/passwd a.txt', /outside/],
  ['sort --files0-from=list a', /list file/],
  ['wc --files0-from list', /list file/],
  ['file --files-from list', /list file/],
  ['wc -l *.md', /option/],
  ['grep foo *.txt', /option/],
  ['strings @args', /arguments from a file/],
  ['strings *', /glob/],
  ['git -C vendor/lib log', /nested repository/],
  ['git -C sub status', /nested repository/],
  ['git -C sub cat-file -p HEAD', /nested repository/],
  ['git log --format=%G?', /gpg/],
  ["git show -s --pretty='format:%GS' HEAD", /gpg/],
  ['git diff -O/etc/passwd', /outside/],
  ['git show HEAD:.env', /secrets/],
  ['git cat-file -p HEAD:deploy/.ssh/id_rsa', /secrets/],
  ['git log -p -- .env', /secrets/],
  ['LANG=~+ ls', /run time/],
  ['env LC_ALL=~+ ls', /variable/],
  ['TZ=/tmp/x date', /time zone/],
  ['TZ=../../x date', /time zone/],
  ['xargs --process-slot-var=LD_PRELOAD echo', /does not know/],
  ['sleep 999999999d', /hour/],
  ['sleep 3000 3000', /hour/],
  // Names of Object.prototype members are programs like any other, not entries of the tables.
  ['constructor x', /^`constructor` is not a known read-only program$/],
  ['toString', /^`toString` is not a known read-only program$/],
];

describe('analyzeBash', () => {
  it.each(READ_ONLY)('read-only: %j', (cmd) => {
    const a = ro(cmd);
    expect(a.reason).toMatch(/read-only/);
    expect(a.readOnly).toBe(true);
  });

  it.each(NOT_READ_ONLY)('not read-only: %j', (cmd, why) => {
    const a = ro(cmd);
    expect(a.readOnly).toBe(false);
    expect(a.reason).toMatch(why);
  });

  it('lists each simple command, including wrapped and substituted ones', () => {
    expect(ro('git log --oneline | head -5 && echo "$(git rev-parse HEAD)"').commands).toEqual([
      'git log --oneline',
      'head -5',
      'echo "$(git rev-parse HEAD)"',
      'git rev-parse HEAD',
    ]);
    expect(ro('timeout 5 rm -rf x').commands).toEqual(['timeout 5 rm -rf x', 'rm -rf x']);
    expect(ro("bash -lc 'git status; rm x'").commands).toEqual(["bash -lc 'git status; rm x'", 'git status', 'rm x']);
    expect(ro('ls > out.txt').commands).toEqual(['ls > out.txt']);
  });

  it('flags parse errors', () => {
    const a = ro('ls (');
    expect(a).toMatchObject({ readOnly: false, parseError: true });
  });

  it('without a cwd, treats absolute paths outside the process cwd as outside', () => {
    expect(analyzeBash('cat /etc/hostname').readOnly).toBe(false);
    expect(analyzeBash('cat README.md').readOnly).toBe(true);
  });

  it('accepts extra workspace roots', () => {
    expect(analyzeBash('cat /data/x.csv', { cwd: '/ws/p', roots: ['/ws/p', '/data'], contained: true }).readOnly).toBe(true);
    expect(analyzeBash('cat /data-evil/x.csv', { cwd: '/ws/p', roots: ['/ws/p', '/data'], contained: true }).readOnly).toBe(false);
  });
});
