// `wield search QUERY [-k N] [--tools FILE.jsonl] [--queries FILE.jsonl] [--json]`: ToolSearch
// ranking over the tool pool, or over a catalog file. With --queries, one JSON line per query:
// {"query", "results": [names]}. The runtime (settings, MCP servers) loads only without --tools,
// so ranking a catalog starts fast.
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { formatLineErrors, parseCatalog, parseQueries } from '../../runtime/search/catalog.js';
import { ToolIndex, type SearchHit } from '../../runtime/search/tool-index.js';
import { addJsonOption, addRuntimeOptions, parsePositiveInt, type CliFlags } from '../options.js';
import { commandAction, writeOut } from '../exit.js';
import { SetupError } from '../setup-error.js';
import { messageOf } from '../../runtime/util/message.js';

const DEFAULT_K = 5;

interface SearchFlags extends CliFlags {
  k?: number;
  tools?: string;
  queries?: string;
}

async function readInput(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const reason = messageOf(error);
    throw new SetupError(`wield search: cannot read the ${what} file ${path} (${reason}); pass a readable JSON Lines file.`);
  }
}

/** The index over a catalog file, or over the runtime's tool pool. */
async function buildIndex(flags: SearchFlags): Promise<{ index: ToolIndex; close: () => Promise<void> }> {
  const index = new ToolIndex();
  if (flags.tools) {
    const { docs, errors } = parseCatalog(await readInput(flags.tools, 'tools'));
    process.stderr.write(formatLineErrors(flags.tools, errors));
    index.add(docs);
    return { index, close: async () => {} };
  }
  const { createCliRuntime } = await import('../runtime.js');
  const runtime = await createCliRuntime({ cwd: process.cwd(), flags });
  await runtime.mcpReady();
  for (const notice of runtime.notices) process.stderr.write(`wield: ${notice}\n`);
  index.add(runtime.registry.pool());
  return { index, close: () => runtime.close() };
}

function formatHits(hits: readonly SearchHit[]): string {
  if (hits.length === 0) return 'no tools matched\n';
  return hits.map((h, i) => `${String(i + 1).padStart(3)}  ${h.name}  ${h.score.toFixed(3)}  ${h.description}\n`).join('');
}

export async function runSearch(query: string | undefined, flags: SearchFlags): Promise<string> {
  const blank = query === undefined || query.trim() === '';
  if (blank && !flags.queries) {
    throw new SetupError(
      'wield search: give a QUERY, or --queries FILE.jsonl with one {"query": "..."} per line (a QUERY is words, "+word" or "select:A,B").',
    );
  }
  if (!blank && flags.queries) {
    throw new SetupError(
      `wield search: give either a QUERY or --queries FILE.jsonl, not both (got the query "${query}" and --queries ${flags.queries}).`,
    );
  }
  const k = flags.k ?? DEFAULT_K;
  const queryText = flags.queries ? await readInput(flags.queries, 'queries') : undefined;
  const { index, close } = await buildIndex(flags);
  try {
    if (queryText !== undefined && flags.queries) {
      const { queries, errors } = parseQueries(queryText);
      process.stderr.write(formatLineErrors(flags.queries, errors));
      return queries.map((q) => `${JSON.stringify({ query: q, results: index.search(q, k).hits.map((h) => h.name) })}\n`).join('');
    }
    const result = index.search(query ?? '', k);
    const missing = result.unknown.map(
      (u) => `no tool named "${u.name}"${u.suggestions.length ? ` (did you mean ${u.suggestions.join(', ')}?)` : ''}\n`,
    );
    process.stderr.write(missing.join(''));
    return flags.json ? `${JSON.stringify(result.hits, null, 2)}\n` : formatHits(result.hits);
  } finally {
    await close();
  }
}

export function register(program: Command): void {
  const search = addJsonOption(
    addRuntimeOptions(
      program
        .command('search')
        .description('ToolSearch ranking over the tool pool, or over a file of {name, description, input_schema?} lines')
        .argument('[query]', 'words describing the task, "+word" to require a word in the name, or "select:A,B"')
        .option('-k <n>', `how many results (default ${DEFAULT_K})`, parsePositiveInt)
        .option('--tools <file>', 'rank the tools of this JSON Lines file instead of the pool')
        .option('--queries <file>', 'run every {"query"} line of this JSON Lines file; prints {"query", "results"} lines'),
    ),
  );
  search.action(
    commandAction(async (query: string | undefined) => {
      await writeOut(await runSearch(query, search.optsWithGlobals<SearchFlags>()));
      return 0;
    }),
  );
}
