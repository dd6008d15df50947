// The adapter examples in examples/ run as written against the built package (dist/), offline.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

function runExample(file: string): string {
  expect(existsSync('dist/index.js'), 'build first: npm run build').toBe(true);
  return execFileSync(process.execPath, [file], { encoding: 'utf8', timeout: 20_000 });
}

describe('examples', () => {
  it('ai-sdk.mjs: good, repaired and denied calls through generateText', () => {
    const out = runExample('examples/ai-sdk.mjs');
    expect(out).toMatch(/^w1 ok: Created notes\.md/m);
    expect(out).toMatch(/^w2 ok: Created todo\.md .*\[wield: the arguments were not valid JSON and were repaired\]/m);
    expect(out).toMatch(/^w3 error: Permission denied for Write: denied by rule `Write\(secret\.md\)`/m);
    expect(out).toContain('todo.md: "- ship"');
    expect(out).toMatch(/^answer: Wrote notes\.md and todo\.md\.$/m);
  });

  it('openai-agents.mjs: an edit that asks pauses the run, is approved, and lands', () => {
    const out = runExample('examples/openai-agents.mjs');
    expect(out).toMatch(/^approval asked: Edit \{"file_path": "README\.md"/m);
    expect(out).toContain('README.md: "Hello world\\n"');
    expect(out).toMatch(/^answer: Fixed the typo\.$/m);
  });

  it('langchain.mjs: parallel calls of one step, one written, one refused by the path guard', () => {
    const out = runExample('examples/langchain.mjs');
    expect(out).toMatch(/^w1 success: Created plan\.md/m);
    expect(out).toMatch(/^w2 error: Permission denied for Write: .*outside the workspace/m);
    expect(out).toContain('plan.md: "1. ship\\n"');
    expect(out).toMatch(/^answer: Saved the plan\.$/m);
  });
});
