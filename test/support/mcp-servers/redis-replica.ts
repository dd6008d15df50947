// A gateway replica on Redis for the liveness tests: `node redis-replica.js REDIS_URL BEAT_MS STALL_LIMIT_MS`
// serves the test pool and Bash over HTTP (2026-07-28 calls become tasks after 0.2 s) and prints
// `listening on URL`. A line `freeze MS` on stdin blocks its main thread for that long
// (Atomics.wait: not one turn of the event loop) between the lines `frozen` and `thawed` on
// stdout, as a long synchronous step or a starved CPU would.
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { bashTool } from '../../../src/coding/tools/bash.js';
import { RedisGatewayStore } from '../../../src/runtime/mcp/gateway-redis.js';
import { serveMcp } from '../../../src/runtime/mcp/serve.js';
import { allowAll } from '../../../src/runtime/pipeline/policies.js';
import { createRuntime } from '../../../src/runtime/pipeline/runtime.js';
import { defineTool } from '../../../src/runtime/tool/define.js';
import { createSession } from '../../../src/runtime/tool/session.js';
import { gatewayRegistry } from './gateway-tools.js';

const [url, beatMs, stallLimitMs] = process.argv.slice(2);
const registry = gatewayRegistry();
registry.register(
  defineTool({
    name: 'ReadFifo',
    source: 'builtin',
    description: 'Returns what is written to a named pipe, once its writer closes it',
    inputSchema: z.object({ path: z.string() }),
    isReadOnly: () => true,
    call: async ({ path }) => readFile(path, 'utf8'),
  }),
);
registry.register(bashTool());
const rt = createRuntime({ registry, session: createSession({ cwd: process.cwd() }), policy: allowAll });
const store = await RedisGatewayStore.connect(url, { beatMs: Number(beatMs), stallLimitMs: Number(stallLimitMs) });
const handle = await serveMcp({
  registry,
  rt,
  transport: { http: { port: 0 } },
  deferral: false,
  store,
  tasks: { afterMs: 200, pollIntervalMs: 200 },
});
process.stdout.write(`listening on ${handle.url}\n`);
createInterface({ input: process.stdin }).on('line', (line) => {
  const ms = /^freeze (\d+)$/.exec(line)?.[1];
  if (ms === undefined) return;
  // Writes to a pipe are synchronous: the line is out before the thread blocks.
  process.stdout.write('frozen\n');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(ms));
  process.stdout.write('thawed\n');
});
