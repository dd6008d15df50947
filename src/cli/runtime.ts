// The one place the CLI wires the runtime together: settings → tools (built-ins, MCP,
// ToolSearch) → policy and hooks → RuntimeContext. Heavy modules load here, on first use.
import path from 'node:path';
import type { LoadedSettings, WieldSettings } from '../coding/settings/load.js';
import { projectsFile, updateProjectRecord } from '../coding/settings/projects.js';
import { untold } from '../coding/settings/trust.js';
import { type CliSettings, loadCliSettings } from './settings.js';
import { createPolicy, deniedWhole, type SandboxOption, type WieldPolicy } from '../coding/permissions/engine.js';
import { readDenyPredicate } from '../coding/permissions/read-deny.js';
import { containment, uncontainedNotice, type Containment } from '../coding/permissions/containment.js';
import { isDeniedServerNote, withoutDeniedServers } from './mcp-deny.js';
import {
  autoAllowsBash,
  createSandboxWrap,
  explainSandboxFailure,
  SANDBOX_CHECKED,
  sandboxStatus,
  type SandboxWrap,
} from '../coding/sandbox/index.js';
import { loadBashAnalyzer } from '../coding/bash/index.js';
import { ToolRegistry } from '../runtime/registry/registry.js';
import { createRuntime } from '../runtime/pipeline/runtime.js';
import type { AskPermission } from '../runtime/pipeline/types.js';
import type { AgentRuntime } from '../runtime/pipeline/runtime.js';
import type { AskUser, SessionState } from '../runtime/tool/types.js';
import { createSession } from '../runtime/tool/session.js';
import { builtinTools } from '../coding/tools/index.js';
import { hooksFromSettings } from '../coding/hooks/settings.js';
import { ToolIndex } from '../runtime/search/tool-index.js';
import { createToolSearchTool } from '../runtime/search/tool.js';
import { loadMcpConfigs, type LoadedMcpConfigs } from '../runtime/mcp/load.js';
import type { McpManager } from '../runtime/mcp/manager.js';
import { declineElicitation, type McpElicitHandler } from '../runtime/mcp/elicit.js';
import { mcpAuthDir } from '../runtime/mcp/oauth-store.js';
import type { DeferralOptions } from '../runtime/search/defer.js';
import { sessionArtefactsDir, wieldHome } from '../runtime/agent/session-store.js';
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

export interface CliRuntime {
  settings: WieldSettings;
  /** Whether the person trusts this project (recorded, or --trust for this run). */
  trusted: boolean;
  registry: ToolRegistry;
  session: SessionState;
  policy: WieldPolicy;
  rt: AgentRuntime;
  /** Things to tell the person (skipped project files, MCP config problems). */
  notices: string[];
  /** The MCP servers as configured, with the entries that were rejected. */
  mcpConfigs: LoadedMcpConfigs;
  /** The running MCP servers; absent when none is configured. */
  mcp?: McpManager;
  /** Resolves once every MCP server's first connection attempt has settled. */
  mcpReady(): Promise<void>;
  /** Settings for ToolSearch deferral: `toolSearch.enabled`, per-server `alwaysLoad` and `description`. */
  deferral: DeferralOptions;
  close(): Promise<void>;
}

/** A line per MCP server that did not start (after mcpReady), with why and where its log is. */
export function mcpFailures(runtime: Pick<CliRuntime, 'mcp'>): string[] {
  return (runtime.mcp?.list() ?? [])
    .filter((server) => server.state === 'failed')
    .map(
      (server) =>
        `MCP server "${server.name}" did not start, so its tools are missing: ${server.error ?? 'no reason given'}` +
        (server.logFile ? ` (its output: ${server.logFile})` : '') +
        '; `wield mcp list` shows every server',
    );
}

export async function createCliRuntime(options: CliRuntimeOptions): Promise<CliRuntime> {
  const env = options.env ?? process.env;
  const { flags } = options;
  const { home, loaded } = options.settings ?? (await loadCliSettings(options.cwd, flags, env));
  const { settings } = loaded;
  const notices: string[] = options.scratch !== undefined ? [] : await ignoredNotices(options.cwd, loaded, wieldHome(env));
  for (const line of loaded.unused) notices.push(`settings wield does not use (ignored): ${line}`);

  // Decides how much the shell analyser lets run unasked (the audited core alone without it).
  const contained = await containment(settings.sandbox, env);
  const session = createSession({
    cwd: options.cwd,
    roots: [options.cwd, ...settings.permissions.additionalDirectories],
    id: options.sessionId,
    // Read deny rules also hide the files Grep, Glob and LS would meet under the searched folder.
    readDenied: readDenyPredicate(settings.permissions.deny, home),
    contained: contained.contained,
  });
  session.dir = options.scratch ?? sessionArtefactsDir(session.id, env);
  const sandbox = await sandboxFor(settings, session, home, [wieldHome(env)], notices);
  if (!settings.sandbox.enabled && options.scratch === undefined)
    notices.push(...(await uncontainedOnce(options.cwd, loaded, wieldHome(env), contained)));

  // A tool a deny rule refuses whole is never offered: not to the model, `wield tools`, the gateway or ToolSearch.
  const registry = new ToolRegistry({ isDeniedWhole: deniedWhole(settings.permissions.deny) });
  const applyPatch = (options.provider ?? flags.provider) === 'openai-responses';
  for (const tool of builtinTools({ bash: { wrap: sandbox.wrap, explainFailure: explainSandboxFailure }, applyPatch }))
    registry.register(tool);
  // The ToolSearch index follows the registry, so MCP tools that arrive later are searchable. It
  // syncs when searched, not on every change: a server registering 2,000 tools one by one would
  // otherwise re-sync the whole pool 2,000 times.
  const index = new ToolIndex();
  let indexStale = true;
  registry.register(
    createToolSearchTool(
      () => {
        if (indexStale) index.sync(registry.pool());
        indexStale = false;
        return index;
      },
      // A search waits (bounded) for MCP servers still connecting, or names them.
      { waitForSources: async (signal) => (await mcp?.settleConnecting(signal)) ?? [] },
    ),
  );
  const stopSync = registry.onChange(() => (indexStale = true));

  const policy = createPolicy({ settings, cwd: session.cwd, roots: session.roots, home, sandbox: sandbox.option });

  const mcpConfigs = withoutDeniedServers(
    loadMcpConfigs({ cwd: session.cwd, settings, trusted: loaded.trusted, mcpConfigFlag: flags.mcpConfig, env }),
    settings.permissions.deny,
  );
  // The untrusted .mcp.json is one of the ignored items above, told once; not again here on every run.
  const untrustedMcp = `${path.join(session.cwd, '.mcp.json')} ignored`;
  notices.push(
    // A server denied whole is the person's own choice: named by `wield mcp list`, not on every run.
    ...mcpConfigs.notes.filter((note) => !note.startsWith(untrustedMcp) && !isDeniedServerNote(note)),
    ...mcpConfigs.errors.map((e) => `MCP ${e.server} (${e.source}): ${e.message}`),
  );
  let mcp: McpManager | undefined;
  if (Object.keys(mcpConfigs.servers).length > 0) {
    // The MCP SDK is heavy: loaded only when a server is configured, connected in the background.
    const { McpManager } = await import('../runtime/mcp/manager.js');
    mcp = new McpManager({
      authDir: mcpAuthDir(env),
      features: { roots: () => session.roots, elicit: options.elicit ?? declineElicitation },
      notify: (message) => process.stderr.write(`wield: ${message}\n`),
    });
    mcp.connectAll(mcpConfigs.servers, { registry, logDir: session.dir });
    // The servers' resources, for the model: ListMcpResources and ReadMcpResource.
    const { createResourceTools } = await import('../runtime/mcp/resources.js');
    for (const tool of createResourceTools(mcp)) registry.register(tool);
  }
  const servers = Object.entries(mcpConfigs.servers);
  const deferral: DeferralOptions = {
    enabled: settings.toolSearch.enabled,
    alwaysLoadServers: servers.filter(([, config]) => config.alwaysLoad === true).map(([name]) => name),
    serverDescriptions: Object.fromEntries(servers.flatMap(([name, config]) => (config.description ? [[name, config.description]] : []))),
    cwd: session.cwd,
  };

  // The shell parser (WASM) loads while the first model request is in flight, so the first
  // Bash call does not wait for it; a failure here surfaces again at that call.
  loadBashAnalyzer().catch(() => undefined);

  const rt = createRuntime({
    registry,
    session,
    policy,
    // A call to a tool of a server still connecting waits for it (up to its connect timeout).
    waitForTool: mcp ? async (name, signal) => mcp?.waitForTool(name, registry, signal) : undefined,
    explainMissing: mcp ? (name) => mcp?.explainMissing(name) : undefined,
    hooks: hooksFromSettings(settings.hooks, { cwd: session.cwd, env }),
    askPermission: options.askPermission,
    askUser: options.askUser,
  });
  return {
    settings,
    trusted: loaded.trusted,
    registry,
    session,
    policy,
    rt,
    notices,
    mcpConfigs,
    mcp,
    mcpReady: async () => mcp?.ready(),
    deferral,
    async close() {
      stopSync();
      await mcp?.close();
    },
  };
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
 * install containment (with the sandbox on, sandboxFor says it every run).
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

/**
 * The Bash wrapper and the policy's view of the sandbox. The wrapper is there even with the
 * sandbox off: commands that run without asking are contained wherever bubblewrap works. An
 * unusable sandbox that settings turn on is said, not hidden.
 */
async function sandboxFor(
  settings: WieldSettings,
  session: SessionState,
  home: string,
  wieldHomes: string[],
  notices: string[],
): Promise<{ wrap: SandboxWrap; option?: SandboxOption }> {
  const wrap = createSandboxWrap(settings.sandbox, session, { home, wieldHomes });
  if (!settings.sandbox.enabled) return { wrap };
  const status = await sandboxStatus(settings.sandbox);
  if (!status.available) notices.push(`sandbox unavailable: ${status.reason}; Bash commands will ask before running`);
  return { wrap, option: { autoAllowBash: autoAllowsBash(settings.sandbox), available: status.available } };
}
