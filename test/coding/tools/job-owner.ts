// Child process for the jobs test: starts a background job running `sleep <argv[2]>`, says
// "started" once sleep runs, then waits to be signalled (as wield would be).
import { BashJobs } from '../../../src/coding/tools/bash-jobs.js';
import { bashTool } from '../../../src/coding/tools/bash.js';
import { createSession } from '../../../src/runtime/tool/session.js';
import { sleeper } from './helpers.js';

const [length, cwd] = process.argv.slice(2);
const jobs = new BashJobs();
const session = createSession({ cwd });
const ctx = { signal: new AbortController().signal, session, toolUseId: 'job', onProgress: () => undefined };
const started = await bashTool({ jobs }).call({ command: sleeper(length), run_in_background: true }, ctx);
if (!('jobId' in started)) throw new Error('no job started');
await jobs.changed(started.jobId);
process.stdout.write('started\n');
setInterval(() => undefined, 60_000);
