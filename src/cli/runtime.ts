// The CLI's runtime: the coding agent's (coding/agent/runtime.ts) under the CLI's settings and
// flags, with the notices the CLI says once per folder (untrusted project files, no sandbox).
import path from 'node:path';
import type { LoadedSettings } from '../coding/settings/load.js';
import { projectsFile, updateProjectRecord } from '../coding/settings/projects.js';
import { untold } from '../coding/settings/trust.js';
import { type CliSettings, loadCliSettings } from './settings.js';
import { SANDBOX_CHECKED } from '../coding/sandbox/index.js';
import { uncontainedNotice, type Containment } from '../coding/permissions/containment.js';
import { createCodingRuntime, type CodingRuntime } from '../coding/agent/runtime.js';
import { isDeniedServerNote, withoutDeniedServers } from './mcp-deny.js';
import type { AskPermission } from '../runtime/pipeline/types.js';
import type { AskUser } from '../runtime/tool/types.js';
import type { McpElicitHandler } from '../runtime/mcp/elicit.js';
import type { McpServerStatus } from '../runtime/mcp/server-status.js';
import { wieldHome } from '../runtime/agent/session-store.js';
import type { CliFlags } from './options.js';
import type { ProviderName } from '../runtime/providers/types.js';

export interface CliRuntimeOptions {
  cwd: string;
  flags: CliFlags;
  /** Settings read already (the model and env are needed before the runtime); read here otherwise. */
  settings?: CliSettings;
  /** Reuse a session id (resume); a new one otherwise. */
  sessionId?: string;
  askPermission?: AskPermission;
  askUser?: AskUser;
  /** Answers MCP servers' elicitation requests (the interactive UI); absent, they are declined. */
  elicit?: McpElicitHandler;
  env?: NodeJS.ProcessEnv;
  /** The model API in use, when known: apply_patch joins the pool for openai-responses. */
  provider?: ProviderName;
  /**
   * The cwd is a throwaway folder (a replay's): nothing is remembered about it in
   * ~/.wield/projects.json, and the session's files (sandbox support, MCP logs) go to this folder.
   */
  scratch?: string;
}

/** The coding agent's runtime (coding/agent/runtime.ts) with the CLI's settings and notices. */
export type CliRuntime = CodingRuntime;

/**
 * A line per MCP server that did not start (after mcpReady), with why and where its log is. A
 * server still connecting then is slower than its connect timeout: with `joining` (a session that
 * goes on) its tools join when it is up; otherwise (a command that ends now) they are missing.
 */
export function mcpFailures(servers: readonly McpServerStatus[], joining = false): string[] {
  return servers.flatMap((server) => {
    const why = server.error ?? 'no reason given';
    if (server.state === 'connecting' && joining)
      return [`MCP server "${server.name}" is still connecting (${why}); its tools join the session when it is up`];
    if (server.state !== 'failed' && server.state !== 'connecting') return [];
    const missing = server.state === 'failed' ? 'did not start' : 'did not connect in time';
    const log = server.logFile ? ` (its output: ${server.logFile})` : '';
    return [`MCP server "${server.name}" ${missing}, so its tools are missing: ${why}${log}; \`wield mcp list\` shows every server`];
  });
}

export async function createCliRuntime(options: CliRuntimeOptions): Promise<CliRuntime> {
  const env = options.env ?? process.env;
  const { flags } = options;
  const { home, loaded } = options.settings ?? (await loadCliSettings(options.cwd, flags, env));
  const notices: string[] = options.scratch !== undefined ? [] : await ignoredNotices(options.cwd, loaded, wieldHome(env));
  for (const line of loaded.unused) notices.push(`settings wield does not use (ignored): ${line}`);
  const runtime = await createCodingRuntime({
    cwd: options.cwd,
    settings: loaded,
    home,
    sessionId: options.sessionId,
    askPermission: options.askPermission,
    askUser: options.askUser,
    elicit: options.elicit,
    env,
    applyPatch: (options.provider ?? flags.provider) === 'openai-responses',
    // Only the flag's "no" overrides settings (commander's default for --no-code-mode is true).
    codeMode: flags.codeMode === false ? false : undefined,
    mcpConfig: flags.mcpConfig,
    sessionDir: options.scratch,
    mcpFilter: (configs, settings) => withoutDeniedServers(configs, settings.permissions.deny),
  });
  if (!loaded.settings.sandbox.enabled && options.scratch === undefined)
    notices.push(...(await uncontainedOnce(options.cwd, loaded, wieldHome(env), runtime.containment)));
  // The untrusted .mcp.json is one of the ignored items above, told once; not again here on every run.
  const untrustedMcp = `${path.join(runtime.session.cwd, '.mcp.json')} ignored`;
  // A server denied whole is the person's own choice: named by `wield mcp list`, not on every run.
  runtime.notices = [...notices, ...runtime.notices.filter((note) => !note.startsWith(untrustedMcp) && !isDeniedServerNote(note))];
  return runtime;
}

/**
 * One notice for what an untrusted project's files would change and how to trust it, naming only
 * what was not told before in this folder (recorded in ~/.wield/projects.json), so it is said
 * once, not on every run.
 */
async function ignoredNotices(cwd: string, loaded: LoadedSettings, home: string): Promise<string[]> {
  const news = untold(loaded.ignored, loaded.project);
  if (news.length === 0) return [];
  try {
    await updateProjectRecord(projectsFile(home), cwd, (record) => ({ ...record, noticed: [...(record.noticed ?? []), ...news] }));
  } catch {
    // Not remembered: said again next run, which is better than not said.
  }
  return [
    `this project is not trusted, so only the deny and ask rules of its files apply; ignored: ${news.join('; ')}. ` +
      'Run `wield trust` to trust it (--trust for one run). Said once for this folder.',
  ];
}

/**
 * Where nothing contains commands, the first run in a folder says what that means and how to
 * install containment (with the sandbox on, the coding runtime says it every run).
 */
async function uncontainedOnce(cwd: string, loaded: LoadedSettings, home: string, contained: Containment): Promise<string[]> {
  if (contained.contained || loaded.project.noticed?.includes(SANDBOX_CHECKED)) return [];
  try {
    await updateProjectRecord(projectsFile(home), cwd, (record) => ({ ...record, noticed: [...(record.noticed ?? []), SANDBOX_CHECKED] }));
  } catch {
    // Not remembered: said again next run.
  }
  return [`${uncontainedNotice(contained)} \`wield doctor\` says this again. Said once for this folder.`];
}
