// Each built-in's response formats through the real pipeline: the same call in concise and in
// detailed, on real files and a real shell, and the default being the detailed output of before.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bashTool } from '../../../src/coding/tools/bash.js';
import { globTool } from '../../../src/coding/tools/glob.js';
import { grepTool } from '../../../src/coding/tools/grep.js';
import { lsTool } from '../../../src/coding/tools/ls.js';
import { readTool } from '../../../src/coding/tools/read.js';
import { allowAll } from '../../../src/runtime/pipeline/policies.js';
import { runToolCall } from '../../../src/runtime/pipeline/run.js';
import { createRuntime } from '../../../src/runtime/pipeline/runtime.js';
import type { RuntimeContext } from '../../../src/runtime/pipeline/types.js';
import { ToolRegistry } from '../../../src/runtime/registry/registry.js';
import { workspace, type Workspace } from './helpers.js';

let ws: Workspace;
let rt: RuntimeContext;

beforeAll(() => {
  ws = workspace();
  ws.file('src/app.ts', 'import { add } from "./math";\nexport function main() {\n  return add(1, 2);\n}\n');
  ws.file(
    'src/math.ts',
    'export function add(a: number, b: number) {\n  return a + b;\n}\nexport const addAll = (xs: number[]) => xs.reduce(add, 0);\n',
  );
  ws.file('src/deep/util.ts', '// add helpers later\n');
  ws.file('README.md', 'Call add.\n');
  let t = 1_700_000_000;
  for (const rel of ['README.md', 'src/deep/util.ts', 'src/math.ts', 'src/app.ts']) {
    t += 100;
    fs.utimesSync(path.join(ws.root, rel), t, t);
  }
  const registry = new ToolRegistry();
  for (const tool of [readTool(), grepTool({ engine: 'ripgrep' }), globTool(), lsTool(), bashTool()]) registry.register(tool);
  rt = createRuntime({ registry, session: ws.session, policy: allowAll });
});
afterAll(() => ws.cleanup());

async function call(name: string, input: Record<string, unknown>): Promise<string> {
  const result = await runToolCall({ id: `${name}-1`, name, input }, rt, new AbortController().signal);
  expect(result.isError, JSON.stringify(result.content)).toBe(false);
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}

describe('response formats of the built-ins', () => {
  it('Grep concise: the matching files with their counts, even when content was asked for', async () => {
    const query = { pattern: 'add', output_mode: 'content', '-C': 1 };
    const detailed = await call('Grep', query);
    expect(detailed).toContain('src/math.ts:1:export function add(a: number, b: number) {');
    expect(detailed).toContain('src/math.ts-2-  return a + b;');
    expect(await call('Grep', { ...query, response_format: 'detailed' })).toBe(detailed);
    const concise = await call('Grep', { ...query, response_format: 'concise' });
    expect(concise).toBe('6 matching lines in 4 files\nREADME.md:1\nsrc/app.ts:2\nsrc/deep/util.ts:1\nsrc/math.ts:2');
    expect(concise.length).toBeLessThan(detailed.length / 2);
  });

  it('Read concise: the same lines without the cat -n gutter; the page notice stays', async () => {
    const detailed = await call('Read', { file_path: 'src/math.ts', limit: 2 });
    expect(detailed.split('\n').slice(0, 2)).toEqual(['     1\texport function add(a: number, b: number) {', '     2\t  return a + b;']);
    const concise = await call('Read', { file_path: 'src/math.ts', limit: 2, response_format: 'concise' });
    expect(concise.split('\n').slice(0, 2)).toEqual(['export function add(a: number, b: number) {', '  return a + b;']);
    expect(concise).toContain('Showing lines 1-2 of 4');
  });

  it('Glob concise: each folder once with its file names', async () => {
    expect(await call('Glob', { pattern: '**/*.ts' })).toBe('src/app.ts\nsrc/math.ts\nsrc/deep/util.ts');
    expect(await call('Glob', { pattern: '**/*.ts', response_format: 'concise' })).toBe('src/: app.ts, math.ts\nsrc/deep/: util.ts');
  });

  it('LS concise: the top level, folders with how much is under them', async () => {
    expect(await call('LS', {})).toBe(`${ws.root}/\n  README.md\n  src/\n    app.ts\n    deep/\n      util.ts\n    math.ts`);
    expect(await call('LS', { response_format: 'concise' })).toBe(`${ws.root}/\n  README.md\n  src/ (4 entries)`);
  });

  it('Bash concise: about 2,000 bytes, mostly the end, with the full output saved to a file', async () => {
    const command = 'for i in $(seq 1 2000); do echo "line $i"; done';
    const detailed = await call('Bash', { command });
    expect(detailed).toContain('line 1\n');
    expect(detailed).toContain('line 1500\n');
    const concise = await call('Bash', { command, response_format: 'concise' });
    expect(concise.length).toBeLessThan(3_000);
    expect(concise).toContain('line 1\n');
    expect(concise).toContain('line 2000\n[exit code 0]');
    expect(concise).not.toContain('line 1000\n');
    const file = /is in (\S+): read more/.exec(concise)?.[1];
    expect(file && fs.readFileSync(file, 'utf8')).toContain('line 1000\n');
  });
});
