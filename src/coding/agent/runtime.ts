// The coding agent's runtime, assembled without a terminal: settings → tools (built-ins, MCP,
// ToolSearch) → sandbox, policy and hooks → RuntimeContext. The CLI and createCodingAgent both
// build theirs here, so a library user gets the CLI's agent. Heavy modules load on first use.
import path from 'node:path';
import { formatSettingsError, loadSettings, type LoadedSettings, type WieldSettings } from '../settings/load.js';
import { userHome } from '../permissions/home.js';
import { createPolicy, deniedWhole, type SandboxOption, type WieldPolicy } from '../permissions/engine.js';
import { readDenyPredicate } from '../permissions/read-deny.js';
import { containment, type Containment } from '../permissions/containment.js';
import { autoAllowsBash, createSandboxWrap, explainSandboxFailure, sandboxStatus, type SandboxWrap } from '../sandbox/index.js';
import { loadBashAnalyzer } from '../bash/index.js';
import { BashJobs, builtinTools } from '../tools/index.js';
import { cleanLeftovers } from '../tools/write-temp.js';
import { hooksFromSettings } from '../hooks/settings.js';
import { ToolRegistry } from '../../runtime/registry/registry.js';
import { createRuntime, type AgentRuntime } from '../../runtime/pipeline/runtime.js';
import type { AskPermission } from '../../runtime/pipeline/types.js';
import type { AskUser, SessionState } from '../../runtime/tool/types.js';
import { createSession } from '../../runtime/tool/session.js';
import { ToolIndex } from '../../runtime/search/tool-index.js';
import { createToolSearchTool } from '../../runtime/search/tool.js';
import { createRunCodeTool, RUN_CODE_NAME } from '../../runtime/codemode/tool.js';
import { loadMcpConfigs, type LoadedMcpConfigs } from '../../runtime/mcp/load.js';
import type { McpManager } from '../../runtime/mcp/manager.js';
import { declineElicitation, type McpElicitHandler } from '../../runtime/mcp/elicit.js';
import { mcpAuthDir } from '../../runtime/mcp/oauth-store.js';
import { selectToolsForRequest, type DeferralOptions, type ToolSelection } from '../../runtime/search/defer.js';
import { sessionArtefactsDir, wieldHome } from '../../runtime/agent/session-store.js';

export interface CodingRuntimeOptions {
  cwd: string;
  /** Settings as loadSettings read them; read for `cwd` (user, project and local files) when absent. */
  settings?: LoadedSettings;
  /** What `~` means for rules and the sandbox; default: the user's home. */
  home?: string;
  /** Reuse a session id (resume); a new one otherwise. */
  sessionId?: string;
  /** Who answers an "ask"; absent, an ask is denied with the reason (no one to ask). */
  askPermission?: AskPermission;
  /** How AskUserQuestion reaches a person; absent, the tool says no one can answer. */
  askUser?: AskUser;
  /** Answers MCP servers' elicitation requests; absent, they are declined. */
  elicit?: McpElicitHandler;
  env?: NodeJS.ProcessEnv;
  /** Offer apply_patch (Codex's format, for OpenAI Responses models). */
  applyPatch?: boolean;
  /** Offer RunCode (code mode); default: settings `codeMode`, on unless it is false. */
  codeMode?: boolean;
  /** An extra MCP config file (the CLI's --mcp-config). */
  mcpConfig?: string;
  /** The session's files (sandbox support, MCP logs); default: the session's folder under WIELD_HOME. */
  sessionDir?: string;
  /** Applied to the MCP servers as configured before any starts (the CLI drops servers denied whole). */
  mcpFilter?: (configs: LoadedMcpConfigs, settings: WieldSettings) => LoadedMcpConfigs;
  /** Where an MCP server's messages for the person go; default: stderr. */
  notify?: (message: string) => void;
}

export interface CodingRuntime {
  settings: WieldSettings;
  /** Whether the person trusts this project (recorded, or trusted for this run). */
  trusted: boolean;
  registry: ToolRegistry;
  session: SessionState;
  policy: WieldPolicy;
  /** Whether commands nobody approved run contained here, and why not when they don't. */
  containment: Containment;
  rt: AgentRuntime;
  /** Things to tell the person (an unusable sandbox, MCP config problems). */
  notices: string[];
  /** The MCP servers as configured, with the entries that were rejected. */
  mcpConfigs: LoadedMcpConfigs;
  /** The running MCP servers; absent when none is configured. */
  mcp?: McpManager;
  /** Resolves once every MCP server's first connection attempt has settled. */
  mcpReady(): Promise<void>;
  /** Settings for ToolSearch deferral: `toolSearch.enabled`, per-server `alwaysLoad` and `description`. */
  deferral: DeferralOptions;
  /** Bash's background jobs (BashOutput and KillShell read and stop them); close() stops them all. */
  jobs: BashJobs;
  /** The temp files of killed Writes removed at start (in the background); close() waits for it. */
  leftoversCleaned: Promise<string[]>;
  close(): Promise<void>;
}

export async function createCodingRuntime(options: CodingRuntimeOptions): Promise<CodingRuntime> {
  const env = options.env ?? process.env;
  const home = options.home ?? userHome(env);
  const loaded = options.settings ?? (await loadSettings({ cwd: options.cwd, home, wieldHome: wieldHome(env) }));
  if (loaded.errors?.length)
    throw new Error(
      `Settings could not be read; fix these and try again:\n${loaded.errors.map((e) => `  ${formatSettingsError(e)}`).join('\n')}`,
    );
  const { settings } = loaded;
  const notices: string[] = [];

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
  session.dir = options.sessionDir ?? sessionArtefactsDir(session.id, env);
  const sandbox = await sandboxFor(settings, session, home, [wieldHome(env)], notices);

  // Temp files of Writes a kill cut short are removed in the background, off the start-up path:
  // only those wield recorded in its own pending folder (write-temp.ts), not a crawl of the workspace.
  const pendingWrites = path.join(wieldHome(env), '.wield', 'pending-writes');
  const leftoversCleaned = cleanLeftovers(pendingWrites);

  // A tool a deny rule refuses whole is never offered: not to the model, `wield tools`, the gateway or ToolSearch.
  const registry = new ToolRegistry({ isDeniedWhole: deniedWhole(settings.permissions.deny) });
  // Bash's background jobs end with this runtime (close), not only with the process.
  const jobs = new BashJobs();
  const tools = builtinTools({
    bash: { wrap: sandbox.wrap, explainFailure: explainSandboxFailure, jobs },
    applyPatch: options.applyPatch,
    files: { pendingWrites },
  });
  for (const tool of tools) registry.register(tool);
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

  const configured = loadMcpConfigs({ cwd: session.cwd, settings, trusted: loaded.trusted, mcpConfigFlag: options.mcpConfig, env });
  const mcpConfigs = options.mcpFilter ? options.mcpFilter(configured, settings) : configured;
  notices.push(...mcpConfigs.notes, ...mcpConfigs.errors.map((e) => `MCP ${e.server} (${e.source}): ${e.message}`));
  let mcp: McpManager | undefined;
  if (Object.keys(mcpConfigs.servers).length > 0) {
    // The MCP SDK is heavy: loaded only when a server is configured, connected in the background.
    const { McpManager } = await import('../../runtime/mcp/manager.js');
    mcp = new McpManager({
      authDir: mcpAuthDir(env),
      features: { roots: () => session.roots, elicit: options.elicit ?? declineElicitation },
      notify: options.notify ?? ((message) => process.stderr.write(`wield: ${message}\n`)),
    });
    mcp.connectAll(mcpConfigs.servers, { registry, logDir: session.dir });
    // The servers' resources, for the model: ListMcpResources and ReadMcpResource.
    const { createResourceTools } = await import('../../runtime/mcp/resources.js');
    for (const tool of createResourceTools(mcp)) registry.register(tool);
    // Calls a server runs as tasks go on in the background: McpTaskResult and McpTaskCancel.
    const { createTaskTools } = await import('../../runtime/mcp/task-jobs.js');
    for (const tool of createTaskTools(mcp.jobs)) registry.register(tool);
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

  let stopListing: () => void = () => undefined;
  if (options.codeMode ?? settings.codeMode ?? true) {
    // A program sees the tools a request would send before any search: the rest it finds
    // through ToolSearch, as the model does, so deferral saves the same tokens here. RunCode is
    // left out of the pool weighed (its description is what is being written). Kept until the
    // registry changes: weighing 2,000 MCP tools took ~13 ms, on every request.
    let listing: ToolSelection | undefined;
    stopListing = registry.onChange(() => (listing = undefined));
    const sent = (): ToolSelection =>
      (listing ??= selectToolsForRequest(
        registry.pool().filter((tool) => tool.name !== RUN_CODE_NAME),
        [],
        deferral,
      ));
    registry.register(createRunCodeTool({ tools: () => sent().tools, deferred: () => sent().deferred.length > 0 }));
  }

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
    containment: contained,
    rt,
    notices,
    mcpConfigs,
    mcp,
    mcpReady: async () => mcp?.ready(),
    deferral,
    jobs,
    leftoversCleaned,
    async close() {
      stopSync();
      stopListing();
      await Promise.all([mcp?.close(), jobs.close(), leftoversCleaned]);
    },
  };
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
