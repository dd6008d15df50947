// Code mode's token savings, end to end through the CLI against a stand-in Anthropic server: each
// task is a scripted session run twice, with direct tool calls (settings codeMode: false) and with
// one RunCode program, both ending on the same answer; each session's request bodies are priced
// by Anthropic's published caching rules (context-billing.ts over test/support/cache-simulator.ts).
// The program's printed output is checked against the answer computed here from the data, and the
// direct session's results against the data it had to see, so neither run answers unseen.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startStandin, type ScriptStep } from '../test/support/standin/index.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, runCli, tempDir } from '../test/cli/helpers.js';
import { billSession } from './context-billing.js';

interface Task {
  name: string;
  prompt: string;
  files(cwd: string): void;
  /** The answer, from the data. */
  answer: string;
  direct(cwd: string): ScriptStep[];
  /** The program: it prints exactly the answer. */
  program(cwd: string): string;
  /** What the direct session's results must hold for its answer to rest on them. */
  directSaw(results: string): boolean;
}

/** A small random generator with a seed: the same files on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const OWNERS = ['ann', 'bob', 'cho', 'dev', 'eli', 'fay'];

// 1. Search many files and aggregate: which routes lack the auth middleware, per file.
function routesTask(): Task {
  const rand = random(1);
  const files: Record<string, string> = {};
  const open: string[] = [];
  for (let f = 0; f < 12; f++) {
    const lines: string[] = [`import { router, auth } from '../http.js';`, ''];
    for (let r = 0; r < 14; r++) {
      const route = `/api/v1/area${f}/item${r}`;
      const guarded = rand() > 0.1;
      if (!guarded) open.push(`routes/r${f}.ts ${route}`);
      lines.push(`router.get('${route}', ${guarded ? 'auth, ' : ''}async (req, res) => {`);
      for (let b = 0; b < 8; b++) lines.push(`  const v${b} = await load${b}(req.params.id, { area: ${f}, item: ${r}, step: ${b} });`);
      lines.push('  res.json({ ok: true });', '});', '');
    }
    files[`routes/r${f}.ts`] = lines.join('\n');
  }
  for (let f = 0; f < 20; f++) files[`lib/util${f}.ts`] = `export const helper${f} = (x: number) => x * ${f};\n`.repeat(30);
  return {
    name: 'search many files and aggregate (routes without auth)',
    prompt: 'Which routes have no auth middleware?',
    files: (cwd) => writeAll(cwd, files),
    answer: open.join('\n'),
    direct: (cwd) => [
      { toolCalls: [{ name: 'Grep', arguments: { pattern: 'router\\.get\\(', path: cwd, output_mode: 'files_with_matches' } }] },
      {
        toolCalls: Object.keys(files)
          .filter((name) => name.startsWith('routes/'))
          .map((name) => read(cwd, name)),
      },
      { text: open.join('\n') },
    ],
    program: (cwd) => `
const found = await tools.Grep({ pattern: "router\\\\.get\\\\(", path: ${JSON.stringify(cwd)}, output_mode: "files_with_matches" });
// Grep lists the most recently changed first: put the files in number order (r2 before r10).
const num = (file) => Number(/r(\\d+)\\.ts$/.exec(file)[1]);
const files = found.split("\\n").slice(1).filter(Boolean).sort((a, b) => num(a) - num(b));
const open = [];
for (const file of files) {
  const text = await tools.Read({ file_path: file.startsWith("/") ? file : ${JSON.stringify(cwd)} + "/" + file });
  for (const m of text.matchAll(/router\\.get\\('([^']+)', (auth, )?/g)) if (!m[2]) open.push("routes/" + file.split("/").pop() + " " + m[1]);
}
console.log(open.join("\\n"));`,
    directSaw: (results) =>
      Object.keys(files).every((name) => !name.startsWith('routes/') || results.includes(`area${name.slice(8, -3)}/item13`)),
  };
}

// 2. Join two tools' outputs: exported functions (Grep) of modules that have no test file (Glob).
function joinTask(): Task {
  const files: Record<string, string> = {};
  const untested: string[] = [];
  for (let m = 0; m < 36; m++) {
    const fns = Array.from(
      { length: 8 },
      (_, i) => `export function ${['parse', 'format', 'load', 'save'][i % 4]}Thing${m}x${i}(input: string): Result {`,
    );
    files[`src/mod${m}.ts`] = fns.map((line) => `${line}\n  return run(input, { module: ${m}, index: 0 });\n}\n`).join('\n');
    if (m % 3 === 0) untested.push(...fns.map((line) => `mod${m} ${/function (\w+)/.exec(line)?.[1]}`));
    else files[`test/mod${m}.test.ts`] = `import { describe } from 'vitest';\n`;
  }
  return {
    name: "join two tools' outputs (Grep × Glob: exported functions without tests)",
    prompt: 'Which exported functions live in modules that have no test file?',
    files: (cwd) => writeAll(cwd, files),
    answer: untested.join('\n'),
    direct: (cwd) => [
      {
        toolCalls: [
          {
            name: 'Grep',
            arguments: { pattern: '^export function', path: path.join(cwd, 'src'), output_mode: 'content', head_limit: 1000 },
          },
          { name: 'Glob', arguments: { pattern: 'test/*.test.ts', path: cwd } },
        ],
      },
      { text: untested.join('\n') },
    ],
    program: (cwd) => `
const [defs, tests] = await Promise.all([
  tools.Grep({ pattern: "^export function", path: ${JSON.stringify(path.join(cwd, 'src'))}, output_mode: "content", head_limit: 1000 }),
  tools.Glob({ pattern: "test/*.test.ts", path: ${JSON.stringify(cwd)} }),
]);
const tested = new Set([...tests.matchAll(/(mod\\d+)\\.test\\.ts/g)].map((m) => m[1]));
const out = [];
for (const m of defs.matchAll(/(mod\\d+)\\.ts:\\d+:export function (\\w+)/g)) if (!tested.has(m[1])) out.push(m[1] + " " + m[2]);
// Grep lists files in path order (mod10 before mod2): put the modules in number order, keeping each one's line order.
out.sort((a, b) => Number(a.split(" ")[0].slice(3)) - Number(b.split(" ")[0].slice(3)));
console.log(out.join("\\n"));`,
    directSaw: (results) => results.includes('saveThing35x7') && results.includes('mod35.test.ts'),
  };
}

// 3. Read a large log and summarise a field: requests and p95 latency per status class.
function logTask(): Task {
  const rand = random(3);
  const lines: string[] = [];
  const byClass = new Map<string, number[]>();
  for (let i = 0; i < 1_500; i++) {
    const status = [200, 200, 200, 201, 204, 301, 404, 500, 503][Math.floor(rand() * 9)];
    const ms = Math.round(5 + rand() * 400);
    const cls = `${String(status)[0]}xx`;
    byClass.set(cls, [...(byClass.get(cls) ?? []), ms]);
    lines.push(
      `2026-12-05T10:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z level=info req=${1e6 + i} method=GET path=/api/v1/items/${i % 97} status=${status} ms=${ms} ua="bench/1.0"`,
    );
  }
  const summary = [...byClass.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([cls, values]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return `${cls} ${values.length} requests, p95 ${sorted[Math.ceil(0.95 * sorted.length) - 1]} ms`;
    })
    .join('\n');
  return {
    name: 'read a large log and summarise a field (status classes, p95 latency)',
    prompt: 'Summarise app.log: requests and p95 latency per status class.',
    files: (cwd) => writeAll(cwd, { 'app.log': `${lines.join('\n')}\n` }),
    answer: summary,
    direct: (cwd) => [
      // Pages of 500 lines: 800 would pass Read's 100,000-character page.
      { toolCalls: [read(cwd, 'app.log', { offset: 1, limit: 500 })] },
      { toolCalls: [read(cwd, 'app.log', { offset: 501, limit: 500 })] },
      { toolCalls: [read(cwd, 'app.log', { offset: 1001, limit: 500 })] },
      { text: summary },
    ],
    program: (cwd) => `
const file = ${JSON.stringify(path.join(cwd, 'app.log'))};
const byClass = {};
for (let offset = 1; ; offset += 500) {
  const page = await tools.Read({ file_path: file, offset, limit: 500 });
  for (const [, c, ms] of page.matchAll(/status=(\\d)\\d\\d ms=(\\d+)/g)) (byClass[c + "xx"] ??= []).push(Number(ms));
  if (!page.includes("To read more")) break;
}
console.log(Object.keys(byClass).sort().map((c) => {
  const v = byClass[c].sort((a, b) => a - b);
  return c + " " + v.length + " requests, p95 " + v[Math.ceil(0.95 * v.length) - 1] + " ms";
}).join("\\n"));`,
    directSaw: (results) => results.includes('req=1000000 ') && results.includes('req=1001499 '),
  };
}

// 4. A 20-step lookup chain: each record names the next; the answer is the last one's owner.
function chainTask(): Task {
  const rand = random(4);
  const files: Record<string, string> = {};
  const order = Array.from({ length: 21 }, (_, i) => `n${(i * 37) % 101}`);
  for (let i = 0; i < order.length; i++) {
    const record: Record<string, unknown> = { id: order[i], next: order[i + 1] ?? null, owner: OWNERS[Math.floor(rand() * OWNERS.length)] };
    for (let f = 0; f < 30; f++) record[`field_${f}`] = `value ${Math.floor(rand() * 1e9).toString(36)} for ${order[i]}`;
    files[`records/${order[i]}.json`] = JSON.stringify(record, null, 2);
  }
  const last = JSON.parse(files[`records/${order[20]}.json`]) as { id: string; owner: string };
  const answer = `${last.id} is owned by ${last.owner}`;
  return {
    name: '20-step lookup chain (each record names the next)',
    prompt: 'Start at records/n0.json and follow next 20 times: who owns the record you end on?',
    files: (cwd) => writeAll(cwd, files),
    answer,
    direct: (cwd) => [...order.map((id) => ({ toolCalls: [read(cwd, `records/${id}.json`)] })), { text: answer }],
    program: (cwd) => `
let id = "n0";
for (let step = 0; step < 20; step++) {
  const text = await tools.Read({ file_path: ${JSON.stringify(path.join(cwd, 'records'))} + "/" + id + ".json" });
  id = JSON.parse(text.split("\\n").map((line) => line.replace(/^\\s*\\d+\\t/, "")).join("\\n")).next;
}
const last = await tools.Read({ file_path: ${JSON.stringify(path.join(cwd, 'records'))} + "/" + id + ".json" });
console.log(id + " is owned by " + /"owner": "(\\w+)"/.exec(last)[1]);`,
    directSaw: (results) => results.includes(`"id": "${order[20]}"`),
  };
}

function writeAll(cwd: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(cwd, name)), { recursive: true });
    writeFileSync(path.join(cwd, name), text);
  }
}

function read(cwd: string, name: string, extra: Record<string, number> = {}) {
  return { name: 'Read', arguments: { file_path: path.join(cwd, name), ...extra } };
}

/** Every tool_result text the model got, in the last request (the whole history). */
function resultsOf(requests: readonly unknown[]): string[] {
  const messages = (requests.at(-1) as { messages: { content: unknown }[] }).messages;
  return messages.flatMap((message) =>
    Array.isArray(message.content)
      ? (message.content as { type: string; content?: { text?: string }[] }[])
          .filter((part) => part.type === 'tool_result')
          .map((part) => (part.content ?? []).map((block) => block.text ?? '').join(''))
      : [],
  );
}

interface Run {
  answer: string;
  requests: unknown[];
  code: number | null;
  stderr: string;
}

async function session(cli: string, task: Task, codeMode: boolean): Promise<Run> {
  const cwd = tempDir('wield-savings-cwd-');
  const home = tempDir('wield-savings-home-');
  task.files(cwd);
  mkdirSync(path.join(home, '.wield'), { recursive: true });
  writeFileSync(path.join(home, '.wield', 'settings.json'), JSON.stringify({ codeMode }));
  const script: ScriptStep[] = codeMode
    ? [{ toolCalls: [{ name: 'RunCode', arguments: { code: task.program(cwd) } }] }, { text: task.answer }]
    : task.direct(cwd);
  const standin = await startStandin({ dialect: 'anthropic', script, countTokens: true });
  try {
    const run = await runCli(cli, [...providerArgs('anthropic'), '-p', task.prompt, '--output-format', 'json', '--max-turns', '40'], {
      cwd,
      env: cleanEnv(home, providerEnv('anthropic', standin.url)),
      timeoutMs: 300_000,
    });
    const summary = JSON.parse(run.stdout || '{}') as { answer?: string };
    return { answer: summary.answer ?? '', requests: standin.requests, code: run.code, stderr: run.stderr };
  } finally {
    await standin.close();
  }
}

const { cli, cleanup } = await buildCli();
try {
  const rows: Record<string, unknown>[] = [];
  let directTotal = 0;
  let codeTotal = 0;
  for (const task of [routesTask(), joinTask(), logTask(), chainTask()]) {
    const direct = await session(cli, task, false);
    const code = await session(cli, task, true);
    const printed = resultsOf(code.requests).at(-1) ?? '';
    const checks = {
      exitCodes: [direct.code, code.code],
      sameAnswer: direct.answer === code.answer && code.answer === task.answer,
      programPrintedTheAnswer: printed.startsWith(`${task.answer}\n`),
      directSawTheData: task.directSaw(resultsOf(direct.requests).join('\n')),
    };
    if (!checks.programPrintedTheAnswer) console.error(`${task.name}: the program printed\n${printed.slice(0, 2_000)}`);
    const directBill = billSession(direct.requests);
    const codeBill = billSession(code.requests);
    directTotal += directBill.billedTokens;
    codeTotal += codeBill.billedTokens;
    rows.push({
      task: task.name,
      ...checks,
      direct: directBill,
      codeMode: codeBill,
      // The fixed prefix (tools, system prompt, the prompt): code mode's adds RunCode's definition.
      firstRequestTokens: {
        direct: billSession(direct.requests.slice(0, 1)).uncachedTokens,
        codeMode: billSession(code.requests.slice(0, 1)).uncachedTokens,
      },
      billedRatio: Number((codeBill.billedTokens / directBill.billedTokens).toFixed(3)),
      uncachedRatio: Number((codeBill.uncachedTokens / directBill.uncachedTokens).toFixed(3)),
    });
  }
  console.log(
    JSON.stringify(
      {
        loadAverage: os.loadavg().map((n) => Number(n.toFixed(1))),
        tasks: rows,
        overall: { directBilled: directTotal, codeModeBilled: codeTotal, ratio: Number((codeTotal / directTotal).toFixed(3)), goal: 0.4 },
      },
      null,
      2,
    ),
  );
} finally {
  cleanup();
}
