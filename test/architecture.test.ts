// The tree keeps the shape docs/architecture.md describes: the runtime tier never reaches up into
// the coding agent, the CLI or the adapters; the coding tier never into the CLI or the adapters;
// no source file passes 400 lines; the tests mirror src/.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const SRC = path.join(ROOT, 'src');
const MAX_LINES = 400;

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith(suffix))
    .map((name) => path.join(dir, name));
}

/** The tier a source file belongs to: its first folder under src/ (index files at the top are the runtime's front door). */
function tierOf(file: string): string {
  const [first] = path.relative(SRC, file).split(path.sep);
  return first.endsWith('.ts') ? 'entry' : first;
}

/** Relative module specifiers of static and dynamic imports and re-exports. */
function importsOf(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) found.push(match[1]);
  return found;
}

/** What each tier may import besides itself. */
const ALLOWED: Record<string, readonly string[]> = {
  runtime: [],
  coding: ['runtime'],
  adapters: ['runtime', 'coding'],
  cli: ['runtime', 'coding', 'adapters'],
  entry: ['runtime', 'coding', 'adapters', 'cli'],
};

function boundaryViolations(files: readonly { file: string; source: string }[]): string[] {
  const violations: string[] = [];
  for (const { file, source } of files) {
    const tier = tierOf(file);
    for (const specifier of importsOf(source)) {
      const target = path.resolve(path.dirname(file), specifier);
      if (!target.startsWith(SRC + path.sep)) continue;
      const targetTier = tierOf(target);
      if (targetTier !== tier && !ALLOWED[tier]?.includes(targetTier))
        violations.push(`${path.relative(ROOT, file)} (${tier}) imports ${specifier} (${targetTier})`);
    }
  }
  return violations;
}

const sources = filesUnder(SRC, '.ts').map((file) => ({ file, source: readFileSync(file, 'utf8') }));

describe('architecture', () => {
  it('finds a violation when one is planted (the check can fail)', () => {
    const planted = { file: path.join(SRC, 'runtime/pipeline/x.ts'), source: "import { bashTool } from '../../coding/tools/bash.js';" };
    expect(boundaryViolations([planted])).toEqual(['src/runtime/pipeline/x.ts (runtime) imports ../../coding/tools/bash.js (coding)']);
    const dynamic = { file: path.join(SRC, 'coding/tools/y.ts'), source: "const m = await import('../../cli/main.js');" };
    expect(boundaryViolations([dynamic])).toHaveLength(1);
  });

  it('the runtime imports neither the coding tier, the adapters nor the CLI; the coding tier not the CLI', () => {
    expect(boundaryViolations(sources)).toEqual([]);
  });

  it(`no source file passes ${MAX_LINES} lines`, () => {
    const long = sources
      .map(({ file, source }) => ({ file: path.relative(ROOT, file), lines: source.split('\n').length - (source.endsWith('\n') ? 1 : 0) }))
      .filter((entry) => entry.lines > MAX_LINES)
      .map((entry) => `${entry.file}: ${entry.lines} lines`);
    expect(long).toEqual([]);
  });

  it('tests mirror src/: every test folder names a folder of src/', () => {
    const testRoot = path.join(ROOT, 'test');
    const strays = filesUnder(testRoot, '.test.ts')
      .map((file) => path.dirname(path.relative(testRoot, file)))
      .filter((dir) => dir !== '.')
      .filter((dir) => {
        try {
          return !statSync(path.join(SRC, dir)).isDirectory();
        } catch {
          return true;
        }
      });
    expect([...new Set(strays)]).toEqual([]);
  });
});
