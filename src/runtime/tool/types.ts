// The Tool contract: one object that answers, for the model and for the runtime, everything
// the pipeline needs to know about a tool. See docs/architecture.md "Contracts".
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { RuntimeContext } from '../pipeline/types.js';

export type JSONSchema = Record<string, unknown>;

/** Where a tool came from; built-ins win name clashes. */
export type ToolSource = 'builtin' | 'mcp' | 'user';

export type TextBlock = { type: 'text'; text: string };
/** Base64 image data; mediaType like image/png. */
export type ImageBlock = { type: 'image'; mediaType: string; data: string };
export type ContentBlock = TextBlock | ImageBlock;

/** What a tool call contributes to the history: content blocks plus the error flag. */
export interface ToolResultContent {
  content: ContentBlock[];
  isError?: boolean;
  /** MCP structuredContent or similar machine-readable payload, passed through untouched. */
  structured?: unknown;
}

/**
 * Why a call ended in an error, for programs (UIs, tests, replay) to switch on; the text is for
 * the model. Set on every result with isError, never on others. The stage that ends a call names it:
 * - `unknown_tool`: no tool has the name (lookup).
 * - `invalid_input`: the arguments do not parse, fit the schema or pass the tool's validateInput.
 * - `hook_blocked`: a PreToolUse hook blocked or denied the call, or a PostToolUse hook replaced
 *   the result with an error.
 * - `denied`: the permission decision refused it (rules, mode, a PermissionRequest hook, the
 *   person, or nobody to ask).
 * - `interrupted`: the run was stopped (the user aborted, or the model's reply failed mid-turn)
 *   before the call started or while it ran.
 * - `cut_off`: the model's reply hit its output-token limit while writing the call's arguments;
 *   nothing ran.
 * - `tool_failed`: the tool ran and failed (threw, or returned an error result), or code around
 *   it did (its permission check, its result mapping, a hook implementation).
 * - `result_lost`: an internal error lost the result; whether the call ran is unknown.
 */
export type ErrorKind =
  | 'unknown_tool'
  | 'invalid_input'
  | 'hook_blocked'
  | 'denied'
  | 'interrupted'
  | 'cut_off'
  | 'tool_failed'
  | 'result_lost';

/** What the model sees, after budgets and hooks. Exactly one per tool call. */
export interface ToolCallResult {
  toolUseId: string;
  toolName: string;
  content: ContentBlock[];
  isError: boolean;
  /** Present exactly when isError is true. */
  errorKind?: ErrorKind;
  structured?: unknown;
  /** What a person sees (Tool.toDisplay), when the tool provides it. */
  display?: string;
  durationMs: number;
}

/** Record of a file the session has read, so writes can detect stale views. */
export interface FileReadRecord {
  path: string;
  mtimeMs: number;
  size: number;
  /** sha256 hex of the whole file content at read time. */
  hash: string;
}

/** An AskUserQuestion question in Claude Code's shape (src/tools/ask-user.ts), every field filled in. */
export interface UserQuestion {
  question: string;
  /** A very short label for the question ('' when the model gave none). */
  header: string;
  /** The choices; none means a free-text question. The person may always type their own answer. */
  options: Array<{ label: string; description: string }>;
  multiSelect: boolean;
}

/** Asks a person; resolves, per question, the chosen labels or the typed answer, or null when nobody can answer (non-interactive run). */
export type AskUser = (questions: UserQuestion[], signal: AbortSignal) => Promise<string[][] | null>;

/** Per-session mutable state shared by tools: working directory, workspace roots, file views. */
export interface SessionState {
  id: string;
  /** Folder for spill files and other session artefacts. */
  dir: string;
  /** Current working directory; Bash updates it when a command changes directory. */
  cwd: string;
  /** Folders tools may touch (the first is the project root). */
  roots: string[];
  fileState: Map<string, FileReadRecord>;
  /** Hosts WebFetch may reach even when they resolve to private addresses (tests, intranets). */
  allowedHosts?: string[];
  /**
   * Files Read deny rules cover (absolute path in); Grep, Glob and LS neither open nor list them.
   * The CLI sets it from the settings (permissions/read-deny.ts); absent, nothing is hidden.
   */
  readDenied?: (absPath: string) => boolean;
  /**
   * Commands that run without asking run contained (no home, workspace read-only, secrets hidden,
   * no network): the shell analyser then only decides friction. Absent, it must hold alone.
   */
  contained?: boolean;
}

export type ToolProgress = { message?: string; output?: string; progress?: number; total?: number };

/**
 * How a call was allowed when no person approved it, for tools that contain what they run by it
 * (the Bash sandbox): `verdict` the tool proved it read-only, `rule` an allow rule matched,
 * `mode` a permissive mode or a hook let it through. Absent: a person (or a PermissionRequest
 * hook in their place) approved it, or no decision was made.
 */
export type AllowBasis = 'verdict' | 'rule' | 'mode';

export interface ToolContext {
  signal: AbortSignal;
  session: SessionState;
  toolUseId: string;
  onProgress: (progress: ToolProgress) => void;
  askUser?: AskUser;
  /** From the permission decision that allowed this call (see AllowBasis). */
  allowedBy?: AllowBasis;
  /** The call's response format (Tool.responseFormats), so a tool can skip work a concise result drops. */
  responseFormat?: string;
  /**
   * The runtime the call runs in (set by the call runner), for a tool that makes calls of its own
   * (RunCode): they then take the same path, with the same policy, hooks, person and events.
   */
  runtime?: RuntimeContext;
  /**
   * Set by wield's MCP gateway for a call it proxies: the gateway's client answers the server's
   * questions itself (2026-07-28 input_required), so they come back as the call's result.
   */
  upstreamRound?: UpstreamRound;
}

/** One round of a proxied call whose server asks questions (MCP 2026-07-28 multi-round-trip). */
export interface UpstreamRound {
  /** The client's answers to the server's last questions, by their inputRequests keys. */
  inputResponses?: Record<string, unknown>;
  /** The server's requestState from its last questions, returned unchanged. */
  requestState?: string;
  /** What the gateway's client can answer: the server asks only that. */
  clientCapabilities?: Record<string, unknown>;
  /** The least severe log level the gateway's client wants; absent, the server sends no logs. */
  logLevel?: string;
}

/** Context for model-facing text that may depend on the session (e.g. cwd in a description). */
export interface DescribeContext {
  cwd: string;
}

export type ValidationResult = { ok: true } | { ok: false; message: string };

export type PermissionBehavior = 'allow' | 'deny' | 'ask' | 'passthrough';

/** A tool's own opinion about a call; the decision engine weighs it with rules and mode. */
export interface PermissionCheck {
  behavior: PermissionBehavior;
  updatedInput?: Record<string, unknown>;
  message?: string;
  /** Rules that would allow calls like this one (e.g. `Bash(git log *)`), for "always allow". */
  suggestions?: string[];
}

/** A file a call touches, so the permission engine can guard paths generically. */
export interface TouchedPath {
  path: string;
  access: 'read' | 'write';
}

export interface ResultBudget {
  /** Characters of text the model may receive from this call. */
  maxChars: number;
}

export type InterruptBehavior = 'cancel' | 'block';

/**
 * Result formats the model chooses per call through a `response_format` parameter the pipeline
 * adds to the schema it sees (tool/response-format.ts); the choice reaches toModel.
 */
export interface ResponseFormats {
  /** Format name → when to choose it, e.g. `{concise: 'to find which files…', detailed: 'to read the lines…'}`. */
  options: Readonly<Record<string, string>>;
  /** The format of a call that names none. */
  default: string;
  /** A tighter result budget for some formats (characters); past it the budget spills to a file as usual. */
  maxResultChars?: Readonly<Record<string, number>>;
}

/**
 * A freeform input: raw text the model writes under a grammar, in the syntaxes the OpenAI
 * Responses API's custom tools accept. The tool receives it as `{input: text}` (tool/freeform.ts).
 */
export interface FreeformInput {
  syntax: 'lark' | 'regex';
  definition: string;
  /** What the text is, for providers that get the tool as a JSON function with one string parameter. */
  description?: string;
}

export interface Tool<I = Record<string, unknown>, O = unknown> {
  name: string;
  aliases: readonly string[];
  /** Extra words for ToolSearch. */
  searchHint?: string;
  source: ToolSource;
  /** For MCP tools: the server name. */
  server?: string;
  /** Never deferred by ToolSearch. */
  alwaysLoad?: boolean;

  description: (ctx: DescribeContext) => string;
  /** Guidelines added to the system prompt while the tool is active. */
  prompt?: (ctx: DescribeContext) => string;
  /** Standard Schema (e.g. zod) used for validation when present. */
  inputSchema?: StandardSchemaV1<unknown, I>;
  /** JSON Schema shown to models (derived from inputSchema for zod) and used by Ajv otherwise. */
  inputJSONSchema: JSONSchema;
  outputSchema?: JSONSchema;
  /** Set for a freeform tool: inputJSONSchema is then `{input: string}` and the text is checked against the grammar. */
  freeform?: FreeformInput;
  /** Formats the model may ask the result in (see ResponseFormats); absent, the tool has one. */
  responseFormats?: ResponseFormats;

  isEnabled: () => boolean;
  isReadOnly: (input: I) => boolean;
  isConcurrencySafe: (input: I) => boolean;
  isDestructive: (input: I) => boolean;
  interruptBehavior: () => InterruptBehavior;

  validateInput?: (input: I, ctx: ToolContext) => ValidationResult | Promise<ValidationResult>;
  checkPermissions: (input: I, ctx: ToolContext) => PermissionCheck | Promise<PermissionCheck>;
  /** Predicate over a rule's content, e.g. `git log *` for `Bash(git log *)`. */
  permissionMatcher?: (input: I) => (ruleContent: string) => boolean;
  /**
   * For compound inputs (a shell line with several commands): the parts rules must each cover.
   * A deny rule matching any part denies the whole; an allow needs every part allowed.
   */
  ruleParts?: (input: I) => I[];
  /** Files this call reads or writes (for the path guard and path rules). */
  touchedPaths?: (input: I, ctx: { cwd: string }) => TouchedPath[];
  /**
   * Other paths the input names that the call may read or change, best-effort (a shell command's
   * operands): a session records them before the call so a replay can restore them. Never used
   * for permissions.
   */
  mentionedPaths?: (input: I, ctx: { cwd: string }) => string[];
  /** Key of the resource a call mutates; two calls with the same key never run at once. */
  writeKey?: (input: I, ctx: { cwd: string }) => string | undefined;

  call: (input: I, ctx: ToolContext) => Promise<O>;
  /** format: the call's response format (the default when the model named none); undefined for tools without formats. */
  toModel: (output: O, budget: ResultBudget, format?: string) => ToolResultContent;
  toDisplay?: (output: O) => string;
  maxResultChars: number;
}

/** A tool whose input type is erased, as held by registries and pools. */
// biome-ignore lint/suspicious/noExplicitAny: Tool<I> is invariant in I (methods read it, ruleParts and inputSchema produce it), so no other type admits every Tool<I>; the pipeline validates input against the tool's own schema before any method sees it.
export type AnyTool = Tool<any, any>;

/** Thrown by a tool's call() for an expected failure; the message goes to the model as is. */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}
