#!/usr/bin/env node
// Starts a real MCP server late: `slow-start.mjs WAIT ENTRY [ARGS...]` waits, then runs ENTRY
// (e.g. server-everything's dist/index.js) with ARGS as its own command line. WAIT is milliseconds,
// or the path of a gate file: the server starts once the test creates it. A process waiting at a
// gate first appends its pid to GATE.pids, so a test can check it was stopped.
import { appendFileSync, existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';

const [wait, entry, ...args] = process.argv.slice(2);
if (/^\d+$/.test(wait)) await sleep(Number(wait));
else {
  appendFileSync(`${wait}.pids`, `${process.pid}\n`);
  while (!existsSync(wait)) await sleep(20);
}
process.argv = [process.argv[0], entry, ...args];
await import(pathToFileURL(entry).href);
