// The rows of `wield tools`: each tool's flags, evaluated for an empty input. Pure.
import type { AnyTool, JSONSchema } from '../runtime/tool/types.js';

export interface ToolRow {
  name: string;
  source: string;
  readOnly: boolean;
  concurrencySafe: boolean;
  destructive: boolean;
  deferred: boolean;
  /** With `--schemas`: the input JSON Schema the tool is validated against. */
  inputSchema?: JSONSchema;
}

/** A flag evaluated for an empty input; a tool that cannot answer without input counts as false. */
function flag(fn: (input: Record<string, unknown>) => boolean): boolean {
  try {
    return fn({}) === true;
  } catch {
    return false;
  }
}

export function toolRows(pool: readonly AnyTool[], deferred: ReadonlySet<string>, schemas = false): ToolRow[] {
  return pool.map((tool) => ({
    name: tool.name,
    source: tool.server ? `${tool.source}:${tool.server}` : tool.source,
    readOnly: flag(tool.isReadOnly),
    concurrencySafe: flag(tool.isConcurrencySafe),
    destructive: flag(tool.isDestructive),
    deferred: deferred.has(tool.name),
    ...(schemas ? { inputSchema: tool.inputJSONSchema } : {}),
  }));
}

export function formatToolTable(rows: readonly ToolRow[]): string {
  const header = ['NAME', 'SOURCE', 'READ-ONLY', 'CONCURRENT', 'DESTRUCTIVE', 'DEFERRED'];
  const cells = rows.map((row) => [
    row.name,
    row.source,
    yes(row.readOnly),
    yes(row.concurrencySafe),
    yes(row.destructive),
    yes(row.deferred),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((line) => line[i].length)));
  return [header, ...cells]
    .map((line) =>
      line
        .map((cell, i) => cell.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function yes(value: boolean): string {
  return value ? 'yes' : '-';
}
