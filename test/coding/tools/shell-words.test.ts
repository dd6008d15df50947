import { describe, expect, it } from 'vitest';
import { pathLikeWords } from '../../../src/coding/tools/shell-words.js';

describe('pathLikeWords', () => {
  it('keeps literal operands with quotes removed, drops options and words bash would expand', () => {
    expect(pathLikeWords(`cat "my notes.txt" 'b.txt' c\\ d.txt -n --color=never`)).toEqual([
      'cat',
      'my notes.txt',
      'b.txt',
      'c d.txt',
      'never',
    ]);
    expect(pathLikeWords('wc -l $HOME/x *.ts ~/y "$(pwd)/z" {a,b}.txt')).toEqual(['wc']);
    expect(pathLikeWords('grep -rn foo src && sed -n 1,5p README.md | head > out.txt')).toEqual([
      'grep',
      'foo',
      'src',
      'sed',
      '1,5p',
      'README.md',
      'head',
      'out.txt',
    ]);
    expect(pathLikeWords('FILE=conf.json node --config=tsconfig.json run.js')).toEqual(['conf.json', 'node', 'tsconfig.json', 'run.js']);
  });

  it('never throws on damaged lines', () => {
    for (const line of ['"unclosed', "'unclosed", 'trailing\\', '', ';;', 'a"b"c']) expect(() => pathLikeWords(line)).not.toThrow();
    expect(pathLikeWords('a"b"c')).toEqual(['abc']);
  });
});
