// `wield tools [--json [--schemas]]`: the tool pool and each tool's flags (and input schemas).
import { selectToolsForRequest } from '../../runtime/search/defer.js';
import { createCliRuntime, mcpFailures } from '../runtime.js';
import type { CliFlags } from '../options.js';
import { writeOut } from '../exit.js';
import { formatToolTable, toolRows } from '../tool-table.js';

export async function runTools(flags: CliFlags): Promise<number> {
  const runtime = await createCliRuntime({ cwd: process.cwd(), flags });
  try {
    await runtime.mcpReady();
    for (const notice of [...runtime.notices, ...mcpFailures(runtime.mcp?.list() ?? [])]) process.stderr.write(`wield: ${notice}\n`);
    const pool = runtime.registry.pool();
    const selection = selectToolsForRequest(pool, [], { cwd: runtime.session.cwd, enabled: runtime.settings.toolSearch.enabled });
    const rows = toolRows(pool, new Set(selection.deferred.map((tool) => tool.name)), flags.schemas === true);
    await writeOut(flags.json ? `${JSON.stringify(rows, null, 2)}\n` : `${formatToolTable(rows)}\n`);
    return 0;
  } finally {
    await runtime.close();
  }
}
