// `wield mcp list [--json]` (servers, state, tool counts, errors) and
// `wield mcp serve [--http PORT] [--host H] [--token T] [--redis URL]` (the pool as an MCP server);
// `wield mcp add|remove` are in mcp-edit.ts.
import { InvalidArgumentError, type Command } from 'commander';
import type { McpServerStatus } from '../../runtime/mcp/server-status.js';
import { commandAction as run, writeOut } from '../exit.js';
import { addJsonOption, addRuntimeOptions, type CliFlags } from '../options.js';
import { SetupError } from '../setup-error.js';
import { registerEdit } from './mcp-edit.js';
import { isDeniedServerNote } from '../mcp-deny.js';

interface ServeFlags extends CliFlags {
  http?: number;
  host?: string;
  token?: string;
  allowedHost?: string[];
  maxSessions?: number;
  idleTimeout?: number;
  redis?: string;
  stallLimit?: number;
  taskAfter?: number;
  upstreamNames?: boolean;
}

function parseCount(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`expected a whole number of at least 1, got ${JSON.stringify(value)}`);
  return n;
}

/** Seconds above 0, or 0 too where 0 turns the limit off. */
const secondsParser =
  (zeroTurnsOff: boolean) =>
  (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < 0 || (n === 0 && !zeroTurnsOff))
      throw new InvalidArgumentError(
        `expected a number of seconds ${zeroTurnsOff ? '(0 turns it off)' : 'above 0'} (e.g. 2 or 0.5), got ${JSON.stringify(value)}`,
      );
    return n;
  };

function parseRedisUrl(value: string): string {
  if (!/^rediss?:\/\/./.test(value))
    throw new InvalidArgumentError(`expected a Redis URL such as redis://127.0.0.1:6379, got ${JSON.stringify(value)}`);
  return value;
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new InvalidArgumentError(`expected a port number 0-65535, got ${JSON.stringify(value)}`);
  return port;
}

export function formatServerTable(servers: readonly McpServerStatus[], untrustedFile?: string): string {
  if (servers.length === 0 && untrustedFile)
    return `No MCP servers run here: ${untrustedFile} is ignored because this folder is not trusted. Run \`wield trust\` to trust it (--trust for one run).`;
  if (servers.length === 0) return 'No MCP servers configured (settings "mcpServers", .mcp.json, or --mcp-config).';
  const header = ['SERVER', 'TRANSPORT', 'PROTOCOL', 'STATE', 'TOOLS', 'ERROR'];
  const rows = servers.map((s) => [
    s.name,
    s.transport,
    s.protocolVersion ?? '-',
    s.state,
    String(s.toolCount),
    [s.error, ...s.toolErrors].filter(Boolean).join('; '),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  return [header, ...rows]
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

async function listServers(flags: CliFlags): Promise<number> {
  // Loaded on use: this module is imported when the CLI starts and must stay light.
  const { createCliRuntime } = await import('../runtime.js');
  const runtime = await createCliRuntime({ cwd: process.cwd(), flags });
  try {
    await runtime.mcpReady();
    const servers = runtime.mcp?.list() ?? [];
    const { errors, notes } = runtime.mcpConfigs;
    const configErrors = errors.map((e) => ({ server: e.server, source: e.source, error: e.message }));
    if (flags.json) {
      await writeOut(`${JSON.stringify({ servers, configErrors, notes }, null, 2)}\n`);
    } else {
      for (const notice of runtime.notices) process.stderr.write(`wield: ${notice}\n`);
      // Not among a run's notices (the person denied the server on purpose), but a listing names it.
      for (const note of notes.filter(isDeniedServerNote)) process.stderr.write(`wield: ${note}\n`);
      await writeOut(`${formatServerTable(servers, runtime.mcpConfigs.untrustedFile)}\n`);
    }
    // A server still connecting here is slower than its connect timeout: not a healthy one.
    return servers.some((s) => s.state === 'failed' || s.state === 'connecting') || configErrors.length > 0 ? 1 : 0;
  } finally {
    await runtime.close();
  }
}

/** Resolves when the process is asked to stop (or, for stdio, when the client hangs up). */
function untilShutdown(stdio: boolean): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
    if (stdio) process.stdin.once('close', resolve);
  });
}

async function serve(flags: ServeFlags): Promise<number> {
  const { createCliRuntime } = await import('../runtime.js');
  const { serveMcp, isLoopback } = await import('../../runtime/mcp/serve.js');
  const token = flags.token ?? process.env.WIELD_MCP_TOKEN;
  // A command-line mistake, found before anything starts (exit 2 like other usage errors).
  if (flags.http !== undefined && flags.host !== undefined && !isLoopback(flags.host) && !token) {
    throw new SetupError(
      `wield mcp serve: serving on ${flags.host} exposes every tool to the network; add --token TOKEN (or set WIELD_MCP_TOKEN), or bind to 127.0.0.1.`,
    );
  }
  if (flags.http === undefined && (flags.redis !== undefined || flags.taskAfter !== undefined))
    throw new SetupError(
      'wield mcp serve: --redis and --task-after apply to --http only (stdio has one client and no replicas); add --http PORT.',
    );
  if (flags.stallLimit !== undefined && flags.redis === undefined)
    throw new SetupError('wield mcp serve: --stall-limit watches a replica on Redis; add --redis URL (or drop --stall-limit).');
  // Loaded only with a Redis URL; a wrong URL fails here, before anything is served.
  const store =
    flags.redis === undefined
      ? undefined
      : await (await import('../../runtime/mcp/gateway-redis.js')).RedisGatewayStore.connect(flags.redis, {
          stallLimitMs: flags.stallLimit === undefined ? undefined : flags.stallLimit * 1000,
        });
  // stdout carries the protocol in stdio mode: everything for people goes to stderr.
  const runtime = await createCliRuntime({ cwd: process.cwd(), flags });
  try {
    for (const notice of runtime.notices) process.stderr.write(`wield: ${notice}\n`);
    const stdio = flags.http === undefined;
    const handle = await serveMcp({
      registry: runtime.registry,
      rt: runtime.rt,
      transport: stdio
        ? 'stdio'
        : {
            http: {
              port: flags.http as number,
              host: flags.host,
              token,
              allowedHosts: flags.allowedHost,
              maxSessions: flags.maxSessions,
              idleTimeoutMs: flags.idleTimeout === undefined ? undefined : flags.idleTimeout * 1000,
            },
          },
      deferral: runtime.deferral,
      upstream: runtime.mcp?.upstream(),
      store,
      tasks: flags.taskAfter === undefined ? undefined : { afterMs: flags.taskAfter * 1000 },
      upstreamNames: flags.upstreamNames === true,
    });
    if (handle.url) process.stderr.write(`wield: MCP gateway listening on ${handle.url}\n`);
    await untilShutdown(stdio);
    await handle.close();
    return 0;
  } finally {
    await runtime.close();
    await store?.close();
  }
}

export function register(program: Command): void {
  const mcp = program.command('mcp').description('MCP servers: list, add or remove the configured ones, or serve the tool pool as one');
  const list = addJsonOption(addRuntimeOptions(mcp.command('list').description('configured MCP servers: state, tool counts, errors')));
  list.action(run(() => listServers(list.optsWithGlobals<CliFlags>())));
  const serveCommand = addRuntimeOptions(
    mcp
      .command('serve')
      .description('serve the tool pool (built-ins, MCP servers, ToolSearch) over MCP: stdio, or Streamable HTTP with --http')
      .option('--http <port>', 'serve Streamable HTTP on this port instead of stdio (0 picks a free port)', parsePort)
      .option('--host <host>', 'address to bind for --http (default 127.0.0.1; anything else needs --token)')
      .option('--token <token>', 'bearer token clients must send (or set WIELD_MCP_TOKEN)')
      .option('--allowed-host <name>', "a further name clients may send as Host, e.g. this machine's DNS name (repeatable)", collect)
      .option('--max-sessions <n>', 'most HTTP sessions kept at once (default 500)', parseCount)
      .option('--idle-timeout <seconds>', 'close an HTTP session idle for this long (default 900)', parseCount)
      .option('--redis <url>', 'share 2026-07-28 state (Tasks, used requestStates) with other replicas in this Redis', parseRedisUrl)
      .option(
        '--stall-limit <seconds>',
        'with --redis: end this replica when its main thread has not answered this long, so its tasks read as lost (default 30; 0 never)',
        secondsParser(true),
      )
      .option(
        '--task-after <seconds>',
        'a call still running after this long becomes a Task, for clients that declared Tasks (default 2)',
        secondsParser(false),
      )
      .option(
        '--upstream-names',
        "proxied tools and prompts keep their servers' own names (not mcp__<server>__<name>) where no other tool or prompt has that name",
      ),
  );
  serveCommand.action(run(() => serve(serveCommand.optsWithGlobals<ServeFlags>())));
  registerEdit(mcp);
}
