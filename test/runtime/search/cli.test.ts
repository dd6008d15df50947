import { afterAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runSearch } from '../../../src/cli/commands/search.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'wield-search-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const target = path.join(dir, name);
  writeFileSync(target, text);
  return target;
}

const tools = file(
  'tools.jsonl',
  [
    '{"name":"Weather__forecast","description":"Weather forecast for a city","input_schema":{"type":"object","properties":{"city":{"type":"string"}}}}',
    '',
    'this is not json',
    '{"name":"Stocks__quote","description":"Latest stock price"}',
    '{"name":"Stocks__history","description":"Historical stock prices for a ticker"}',
  ].join('\n'),
);

describe('wield search', () => {
  it('prints one JSON line per query with k names, reporting odd lines on stderr', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const queries = file(
      'q.jsonl',
      '{"query":"rain tomorrow in Oslo weather","relevant":["x"]}\n\n{"nope":1}\n{"query":"stock price history"}\n',
    );
    const out = await runSearch(undefined, { tools, queries, k: 2 });
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { query: string; results: string[] });
    expect(lines).toEqual([
      { query: 'rain tomorrow in Oslo weather', results: ['Weather__forecast'] },
      { query: 'stock price history', results: ['Stocks__history', 'Stocks__quote'] },
    ]);
    const errors = stderr.mock.calls.map((c) => String(c[0])).join('');
    stderr.mockRestore();
    expect(errors).toMatch(/tools\.jsonl:3: not valid JSON/);
    expect(errors).toMatch(/q\.jsonl:3: missing "query"/);
  });

  it('prints rank, name, score and description, or JSON hits', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const human = await runSearch('stock', { tools, k: 5 });
    expect(human).toMatch(/^ {2}1 {2}Stocks__\w+ {2}\d\.\d{3} {2}\S/);
    const json = JSON.parse(await runSearch('forecast', { tools, json: true })) as { name: string; score: number }[];
    stderr.mockRestore();
    expect(json[0]).toMatchObject({ name: 'Weather__forecast', server: 'Weather', description: 'Weather forecast for a city' });
  });

  it('asks for a query or a queries file, and names unreadable files', async () => {
    await expect(runSearch(undefined, { tools })).rejects.toThrow(/give a QUERY, or --queries/);
    await expect(runSearch('x', { tools: path.join(dir, 'missing.jsonl') })).rejects.toThrow(/cannot read the tools file/);
  });
});
