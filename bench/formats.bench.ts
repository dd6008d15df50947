// Tokens saved by concise response formats: one scripted exploration session (find where result
// budgets are applied, read around it, check the build) run twice through the real pipeline on
// a copy of this repository's src/ — once with every call in the default (detailed) format, once
// with the format a model would pick for each step. Tokens of what the model gets, counted with
// o200k_base (js-tiktoken), the tokenizer of OpenAI's current models.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getEncoding } from 'js-tiktoken';
import { builtinTools } from '../src/coding/tools/index.js';
import { allowAll } from '../src/runtime/pipeline/policies.js';
import { runToolCall } from '../src/runtime/pipeline/run.js';
import { createRuntime } from '../src/runtime/pipeline/runtime.js';
import { ToolRegistry } from '../src/runtime/registry/registry.js';
import { createSession } from '../src/runtime/tool/session.js';

interface Step {
  tool: string;
  input: Record<string, unknown>;
  /** The format a model that knows what it needs next would ask for. */
  chosen: 'concise' | 'detailed';
}

const SESSION: Step[] = [
  { tool: 'LS', input: {}, chosen: 'concise' },
  { tool: 'Glob', input: { pattern: '**/*.ts' }, chosen: 'concise' },
  { tool: 'Grep', input: { pattern: 'applyBudget', output_mode: 'content', '-C': 2 }, chosen: 'concise' },
  { tool: 'Grep', input: { pattern: 'maxResultChars', output_mode: 'content' }, chosen: 'concise' },
  { tool: 'Read', input: { file_path: 'src/runtime/pipeline/execute.ts' }, chosen: 'concise' },
  { tool: 'Read', input: { file_path: 'src/runtime/tool/types.ts' }, chosen: 'concise' },
  // The file it is going to edit: line numbers and exact text matter.
  { tool: 'Read', input: { file_path: 'src/runtime/results/budget.ts' }, chosen: 'detailed' },
  { tool: 'Grep', input: { pattern: 'spillText', output_mode: 'content', '-n': true }, chosen: 'detailed' },
  { tool: 'Bash', input: { command: "find src -name '*.ts' | sort | xargs wc -l" }, chosen: 'concise' },
  { tool: 'Bash', input: { command: 'grep -rn "export function" src | sort' }, chosen: 'concise' },
];

const encoding = getEncoding('o200k_base');
const tokens = (text: string): number => encoding.encode(text).length;

async function runSession(root: string, formatOf: (step: Step) => string | undefined): Promise<number[]> {
  const registry = new ToolRegistry();
  for (const tool of builtinTools()) registry.register(tool);
  const session = createSession({ cwd: root, dir: fs.mkdtempSync(path.join(os.tmpdir(), 'wield-formats-session-')) });
  const rt = createRuntime({ registry, session, policy: allowAll });
  const counts: number[] = [];
  for (const [i, step] of SESSION.entries()) {
    const format = formatOf(step);
    const input = format === undefined ? step.input : { ...step.input, response_format: format };
    const result = await runToolCall({ id: `s${i}`, name: step.tool, input }, rt, new AbortController().signal);
    if (result.isError) throw new Error(`${step.tool} failed: ${JSON.stringify(result.content)}`);
    counts.push(tokens(result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n')));
  }
  return counts;
}

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wield-formats-bench-')));
fs.cpSync(path.join(process.cwd(), 'src'), path.join(root, 'src'), { recursive: true });
const baseline = await runSession(root, () => undefined);
const chosen = await runSession(root, (step) => step.chosen);
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
fs.rmSync(root, { recursive: true, force: true });
const result = {
  tokenizer: 'o200k_base (js-tiktoken)',
  calls: SESSION.length,
  detailed_tokens: sum(baseline),
  chosen_tokens: sum(chosen),
  saved_share: Number((1 - sum(chosen) / sum(baseline)).toFixed(3)),
  per_call: SESSION.map((step, i) => ({ tool: step.tool, format: step.chosen, detailed: baseline[i], chosen: chosen[i] })),
};
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
