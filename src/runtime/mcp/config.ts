// MCP server configuration: the shapes users already write in `.mcp.json` and settings
// (`mcpServers`), validated per server so one bad entry never hides the others.
//
// stdio:  { "command": "npx", "args": ["-y", "pkg"], "env": {"K": "v"}, "cwd": "dir" }
// http:   { "type": "http", "url": "https://host/mcp", "headers": {"Authorization": "Bearer …"} }
//         allowedHosts: other hosts its redirects may lead to even when private ("*.corp" for
//         subdomains); the url's own host may always be private or loopback, and link-local or
//         cloud metadata addresses are always refused
// Options for either (wield's own):
//   timeout          per-call timeout in ms (default 120000); the call is cancelled on the server
//   connectTimeout   ms a call waits for a server still connecting (default 30000)
//   joinTimeout      ms a server may take to connect at all (default 300000, at least
//                    connectTimeout): one slower than connectTimeout goes on connecting in the
//                    background and its tools join the session when it is up
//   trustAnnotations true to believe the server's readOnlyHint/destructiveHint: read-only tools
//                    then skip write prompts and run in parallel. Off by default: hints are
//                    the server's claim, not a guarantee.
//   responseFormats  true to let the model ask this server's tools for a concise result
//                    (tool/response-format.ts; mcp/adapt.ts says what concise keeps)
//   disabled         true to keep the entry but not start it
//   alwaysLoad       true to send this server's tools with every request (never deferred by ToolSearch)
//   description      one line about the server, shown to the model next to its deferred tools
//   protocol         "auto" (default: probe with server/discover, else 2025-11-25), or a revision to
//                    speak without probing ("2025-11-25" saves a stdio server's probe spawn)
//   elicitation      "accept-defaults" to answer the server's questions with the defaults its form
//                    proposes (non-interactive runs); default: asked interactively, declined in -p
// http only:
//   oauth            false to never authorize; or {clientId, clientSecret, clientMetadataUrl, scope,
//                    grant: "authorization_code" | "client_credentials" | "cross-app" | "jwt-bearer",
//                    callbackPort, privateKey (PEM, for private_key_jwt), signingAlgorithm (default
//                    RS256), idp (cross-app only: {issuer | tokenUrl, clientId, clientSecret, idToken |
//                    idTokenCommand}), assertion (jwt-bearer only: a workload identity JWT, e.g.
//                    "${WORKLOAD_JWT}")}; by default a server answering 401 gets the OAuth flow
//                    (discovery, registration, PKCE)
import { z } from 'zod';

export const DEFAULT_CALL_TIMEOUT_MS = 120_000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
export const DEFAULT_JOIN_TIMEOUT_MS = 300_000;

const stringMap = z.record(z.string(), z.string());
const common = {
  timeout: z.number().int().positive().optional(),
  connectTimeout: z.number().int().positive().optional(),
  joinTimeout: z.number().int().positive().optional(),
  trustAnnotations: z.boolean().optional(),
  responseFormats: z.boolean().optional(),
  disabled: z.boolean().optional(),
  alwaysLoad: z.boolean().optional(),
  description: z.string().optional(),
  elicitation: z.enum(['ask', 'accept-defaults']).optional(),
  protocol: z.enum(['auto', '2025-11-25', '2026-07-28']).optional(),
};

const httpUrl = (name: string) => z.url({ protocol: /^https?$/, error: `${name} must be an http(s) URL` });

/** The enterprise IdP of the cross-app grant (oauth-cross-app.ts). */
const idpSchema = z
  .strictObject({
    issuer: httpUrl('oauth.idp.issuer').optional(),
    tokenUrl: httpUrl('oauth.idp.tokenUrl').optional(),
    clientId: z.string({ error: "required: this client's ID at the IdP" }).min(1, "required: this client's ID at the IdP"),
    clientSecret: z.string().min(1).optional(),
    idToken: z.string().min(1).optional(),
    idTokenCommand: z.string().min(1).optional(),
  })
  .refine((idp) => (idp.issuer === undefined) !== (idp.tokenUrl === undefined), {
    message: 'needs "issuer" (its token endpoint is discovered) or "tokenUrl", one of the two',
  })
  .refine((idp) => (idp.idToken === undefined) !== (idp.idTokenCommand === undefined), {
    message: 'needs "idToken" (e.g. "${IDP_ID_TOKEN}") or "idTokenCommand" (printing one), one of the two',
  });

const oauthSchema = z
  .strictObject({
    clientId: z.string().min(1).optional(),
    clientSecret: z.string().min(1).optional(),
    clientMetadataUrl: z.url({ protocol: /^https$/, error: 'clientMetadataUrl must be an https URL' }).optional(),
    scope: z.string().optional(),
    grant: z.enum(['authorization_code', 'client_credentials', 'cross-app', 'jwt-bearer']).optional(),
    callbackPort: z.number().int().min(1).max(65_535).optional(),
    /** PEM (PKCS#8) key signing a private_key_jwt client assertion, instead of a client secret. */
    privateKey: z.string().min(1).optional(),
    signingAlgorithm: z.enum(['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'ES512']).optional(),
    idp: idpSchema.optional(),
    /** The jwt-bearer grant's assertion (RFC 7523): a workload identity token, never stored. */
    assertion: z.string().min(1).optional(),
  })
  .refine((oauth) => !oauth.privateKey || oauth.clientId, {
    message: 'oauth.privateKey needs oauth.clientId: the signed assertion names the client it authenticates',
  })
  .refine((oauth) => (oauth.grant === 'cross-app') === (oauth.idp !== undefined), {
    message: 'oauth.idp goes with "grant": "cross-app", and that grant needs oauth.idp (the enterprise IdP)',
  })
  .refine((oauth) => oauth.grant !== 'cross-app' || (oauth.clientId && (oauth.clientSecret || oauth.privateKey)), {
    message:
      '"grant": "cross-app" needs oauth.clientId with oauth.clientSecret or oauth.privateKey: the client registered at the MCP server\'s authorization server',
  })
  .refine((oauth) => (oauth.grant === 'jwt-bearer') === (oauth.assertion !== undefined && oauth.clientId !== undefined), {
    message:
      'oauth.assertion goes with "grant": "jwt-bearer", and that grant needs oauth.assertion (e.g. "${WORKLOAD_JWT}") and oauth.clientId',
  });

const stdioSchema = z.strictObject({
  type: z.literal('stdio').optional(),
  command: z.string().min(1, 'command must name the program to start'),
  args: z.array(z.string()).optional(),
  env: stringMap.optional(),
  cwd: z.string().optional(),
  ...common,
});

const httpSchema = z.strictObject({
  type: z.enum(['http', 'streamable-http']),
  url: z.url({ protocol: /^https?$/, error: 'url must be an http(s) URL such as https://host/mcp' }),
  headers: stringMap.optional(),
  allowedHosts: z.array(z.string().min(1)).optional(),
  oauth: z.union([z.literal(false), oauthSchema]).optional(),
  ...common,
});

export type McpStdioConfig = z.infer<typeof stdioSchema>;
export type McpHttpConfig = z.infer<typeof httpSchema>;
export type McpServerConfig = McpStdioConfig | McpHttpConfig;

export interface McpConfigError {
  server: string;
  /** Where the entry came from: settings, .mcp.json, --mcp-config. */
  source: string;
  message: string;
}

export interface McpConfigSet {
  servers: Record<string, McpServerConfig>;
  errors: McpConfigError[];
}

export function isHttpConfig(config: McpServerConfig): config is McpHttpConfig {
  return config.type === 'http' || config.type === 'streamable-http';
}

/**
 * The issues to show. A union's own "Invalid input" hides why (`"oauth": {…}` missing a field is
 * not `false` either): when one branch got past the value's type, its issues are the reason.
 */
function shownIssues(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[] = []): { path: PropertyKey[]; message: string }[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union') {
      const deeper = issue.errors.filter((branch) => branch.some((inner) => inner.path.length > 0));
      if (deeper.length === 1) return shownIssues(deeper[0], path);
    }
    return [{ path, message: issue.message }];
  });
}

function describeIssues(error: z.ZodError): string {
  return shownIssues(error.issues)
    .map((issue) => (issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

/** Validates one entry; `type` may be left out when `command` (stdio) or `url` (http) says it. */
export function parseServerConfig(raw: unknown): { ok: true; config: McpServerConfig } | { ok: false; message: string } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, message: 'expected an object like {"command": "...", "args": [...]} or {"type": "http", "url": "..."}' };
  }
  const entry = raw as Record<string, unknown>;
  if (entry.type === undefined && !('command' in entry) && !('url' in entry)) {
    return {
      ok: false,
      message: 'needs "command" (a program to run over stdio) or "url" (Streamable HTTP); servers go in {"mcpServers": {"name": {...}}}',
    };
  }
  if (entry.type === 'sse') {
    return {
      ok: false,
      message: 'type "sse" (the deprecated HTTP+SSE transport) is not supported; use {"type": "http", "url": ...} (Streamable HTTP)',
    };
  }
  const isHttp =
    entry.type === 'http' || entry.type === 'streamable-http' || (entry.type === undefined && 'url' in entry && !('command' in entry));
  const parsed = isHttp ? httpSchema.safeParse({ type: 'http', ...entry }) : stdioSchema.safeParse(entry);
  return parsed.success ? { ok: true, config: parsed.data } : { ok: false, message: describeIssues(parsed.error) };
}

/** `${VAR}` and `${VAR:-default}` in strings, as `.mcp.json` files written for other agents use. */
export function expandEnv(text: string, env: Record<string, string | undefined>): string {
  return text.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
    (_match, name: string, fallback: string | undefined) => env[name] ?? fallback ?? '',
  );
}

/** The record with the named fields' `${VAR}`s expanded: secrets usually come from the environment. */
function expandFields<T extends Record<string, unknown>>(
  record: T,
  keys: readonly (keyof T)[],
  env: Record<string, string | undefined>,
): T {
  const expanded = { ...record };
  for (const key of keys) {
    const value = expanded[key];
    if (typeof value === 'string') expanded[key] = expandEnv(value, env) as T[keyof T];
  }
  return expanded;
}

function expandConfig(config: McpServerConfig, env: Record<string, string | undefined>): McpServerConfig {
  const map = (record: Record<string, string> | undefined) =>
    record && Object.fromEntries(Object.entries(record).map(([key, value]) => [key, expandEnv(value, env)]));
  if (isHttpConfig(config)) {
    const oauth = config.oauth && {
      ...expandFields(config.oauth, ['clientSecret', 'privateKey', 'assertion'], env),
      ...(config.oauth.idp ? { idp: expandFields(config.oauth.idp, ['clientSecret', 'idToken'], env) } : {}),
    };
    return { ...config, url: expandEnv(config.url, env), headers: map(config.headers), ...(oauth ? { oauth } : {}) };
  }
  return {
    ...config,
    command: expandEnv(config.command, env),
    args: config.args?.map((arg) => expandEnv(arg, env)),
    env: map(config.env),
    cwd: config.cwd === undefined ? undefined : expandEnv(config.cwd, env),
  };
}

/**
 * Validates a record of server entries (settings' `mcpServers` or a file's). Accepts either the
 * record itself or `{ "mcpServers": { ... } }`, the shape of `.mcp.json`.
 */
export function parseServerRecord(raw: unknown, source: string, env: Record<string, string | undefined> = process.env): McpConfigSet {
  const result: McpConfigSet = { servers: {}, errors: [] };
  if (raw === undefined || raw === null) return result;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    result.errors.push({ server: '*', source, message: 'expected an object of servers: {"mcpServers": {"name": {...}}}' });
    return result;
  }
  const outer = raw as Record<string, unknown>;
  const record = 'mcpServers' in outer ? outer.mcpServers : outer;
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    result.errors.push({ server: '*', source, message: '"mcpServers" must be an object mapping server names to configurations' });
    return result;
  }
  for (const [name, entry] of Object.entries(record as Record<string, unknown>)) {
    if (name.trim() === '') {
      result.errors.push({ server: name, source, message: 'server names must not be empty' });
      continue;
    }
    const parsed = parseServerConfig(entry);
    if (parsed.ok) result.servers[name] = expandConfig(parsed.config, env);
    else result.errors.push({ server: name, source, message: parsed.message });
  }
  return result;
}

/** Later sets win per server name; errors accumulate. */
export function mergeConfigSets(...sets: McpConfigSet[]): McpConfigSet {
  return {
    servers: Object.assign({}, ...sets.map((set) => set.servers)),
    errors: sets.flatMap((set) => set.errors),
  };
}
