#!/usr/bin/env node
// Starts a real MCP server late: `slow-start.mjs MS ENTRY [ARGS...]` waits MS milliseconds, then
// runs ENTRY (e.g. server-everything's dist/index.js) with ARGS as its own command line.
import { pathToFileURL } from 'node:url';

const [ms, entry, ...args] = process.argv.slice(2);
await new Promise((resolve) => setTimeout(resolve, Number(ms)));
process.argv = [process.argv[0], entry, ...args];
await import(pathToFileURL(entry).href);
