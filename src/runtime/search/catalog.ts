// JSON Lines inputs of `wield search`: tool catalogs ({name, description, input_schema?}) and
// query files ({query, ...}). Pure: blank lines are skipped, bad lines are reported by number
// and the rest is kept, so one odd line never stops an evaluation run.
import { docFromJSON, type ToolDoc } from './doc.js';
import { messageOf } from '../util/message.js';

export interface LineError {
  line: number;
  message: string;
}

function eachJsonLine(text: string, visit: (value: unknown, line: number) => string | undefined): LineError[] {
  const errors: LineError[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const trimmed = raw.trim();
    if (trimmed === '') return;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      errors.push({ line: i + 1, message: `not valid JSON (${messageOf(error)})` });
      return;
    }
    const problem = visit(value, i + 1);
    if (problem) errors.push({ line: i + 1, message: problem });
  });
  return errors;
}

export function parseCatalog(text: string): { docs: ToolDoc[]; errors: LineError[] } {
  const docs: ToolDoc[] = [];
  const seen = new Set<string>();
  const errors = eachJsonLine(text, (value) => {
    const doc = docFromJSON(value);
    if (typeof doc === 'string') return `${doc}; expected {"name": "...", "description": "...", "input_schema": {...}}`;
    if (seen.has(doc.name)) return `duplicate name "${doc.name}" (the first one is kept)`;
    seen.add(doc.name);
    docs.push(doc);
    return undefined;
  });
  return { docs, errors };
}

export function parseQueries(text: string): { queries: string[]; errors: LineError[] } {
  const queries: string[] = [];
  const errors = eachJsonLine(text, (value) => {
    const query = (value as { query?: unknown } | null)?.query;
    if (typeof query !== 'string' || query.trim() === '') return 'missing "query" (a non-empty string); expected {"query": "..."}';
    queries.push(query);
    return undefined;
  });
  return { queries, errors };
}

export function formatLineErrors(file: string, errors: readonly LineError[]): string {
  return errors.map((e) => `wield search: ${file}:${e.line}: ${e.message}, line skipped\n`).join('');
}
