// A gateway process for the stdio tests: `node gateway.mjs [allow|deny|ask]` serves the test pool.
import { serveMcp } from '../../../src/runtime/mcp/serve.js';
import { createRuntime } from '../../../src/runtime/pipeline/runtime.js';
import { allowAll, denyAll } from '../../../src/runtime/pipeline/policies.js';
import { createSession } from '../../../src/runtime/tool/session.js';
import { askForShout, gatewayRegistry } from './gateway-tools.js';

const mode = process.argv[2] ?? 'allow';
const registry = gatewayRegistry();
const policy = mode === 'deny' ? denyAll : mode === 'ask' ? askForShout : allowAll;
const rt = createRuntime({ registry, session: createSession({ cwd: process.cwd() }), policy });
await serveMcp({ registry, rt, transport: 'stdio', deferral: false });
