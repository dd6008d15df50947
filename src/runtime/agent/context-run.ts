// The session's context during a run: tracking its size, clearing old results, the turn budget
// and compaction. Decisions come from ../context (pure); this file does the effects (spill files,
// the summarising request) and keeps the count between requests.
import type { ToolCallResult } from '../tool/types.js';
import type { SessionState } from '../tool/types.js';
import type { DeferredToolsMode, Message, ModelProvider, PromptCache, Usage } from '../providers/types.js';
import { applyBudget } from '../results/budget.js';
import { spillText } from '../results/spill.js';
import type { CacheTtl } from '../context/pricing.js';
import { decideClearing, DEFAULT_CLEARING, withCleared, type ClearingPolicy } from '../context/clearing.js';
import {
  compactedHistory,
  DEFAULT_COMPACTION,
  SUMMARY_SYSTEM,
  splitForCompaction,
  summaryRequestText,
  type CompactionPolicy,
} from '../context/compaction.js';
import { contextWindowFor } from '../context/models.js';
import { messagesTokens, textTokens } from '../context/tokens.js';
import { fairShares, TURN_BUDGET_SHARE, turnBudgetChars } from '../context/turn-budget.js';
import type { PriceOverrides } from '../context/pricing.js';
import { textBlocks } from './history.js';
import { messageOf } from '../util/message.js';

/** runAgent's `context` option: every part on by default; `false` turns one off. */
export interface ContextOptions {
  /** The model's context window in tokens; default: the known-model table, else 128,000. */
  window?: number;
  /**
   * Prompt caching hints (Anthropic breakpoints, OpenAI prompt_cache_key); TTL 5m unless '1h'.
   * `deferredTools` (default 'auto'): tools ToolSearch loads go as Anthropic deferred tools.
   */
  cache?: false | { ttl?: CacheTtl; deferredTools?: DeferredToolsMode };
  /** USD per million tokens for models the built-in table lacks (or to correct it). */
  prices?: PriceOverrides;
  /** Share of the room left that one turn's results may take (default 0.25), or false. */
  turnBudget?: false | number;
  clearing?: false | Partial<ClearingPolicy>;
  compaction?: false | Partial<CompactionPolicy>;
}

/** Output tokens kept free when planning: what a reply may need. */
const DEFAULT_RESERVE_TOKENS = 16_384;

export function promptCache(options: ContextOptions | undefined, sessionId: string): PromptCache | undefined {
  if (options?.cache === false) return undefined;
  const deferredTools = options?.cache?.deferredTools;
  return { ttl: options?.cache?.ttl ?? '5m', key: sessionId, ...(deferredTools ? { deferredTools } : {}) };
}

export type CompactionOutcome =
  | { ok: true; messages: Message[]; usage: Usage; summarised: number }
  | { ok: false; error: string; usage?: Usage };

export interface CompactHistoryOptions {
  provider: ModelProvider;
  model: string;
  messages: readonly Message[];
  signal: AbortSignal;
  /** Assistant turns kept verbatim (default 2). */
  keepTurns?: number;
  maxTokens?: number;
}

/**
 * Summarises the older part of a history with the model (a request without tools) and returns
 * the compacted history; a failure is a value and the history passed in is left as it was.
 */
export async function compactHistory(options: CompactHistoryOptions): Promise<CompactionOutcome> {
  const split = splitForCompaction(options.messages, options.keepTurns ?? DEFAULT_COMPACTION.keepTurns);
  if (split === undefined) return { ok: false, error: 'Nothing to compact: the history has no turns older than the ones kept verbatim.' };
  let summary = '';
  let usage: Usage | undefined;
  try {
    const stream = options.provider.stream(
      {
        model: options.model,
        system: SUMMARY_SYSTEM,
        messages: [{ role: 'user', content: [{ type: 'text', text: summaryRequestText(split.older) }] }],
        tools: [],
        maxTokens: options.maxTokens ?? 8_192,
      },
      options.signal,
    );
    for await (const event of stream) {
      if (event.type === 'text_delta') summary += event.text;
      else if (event.type === 'message_end') usage = event.usage;
      else if (event.type === 'retry') summary = '';
    }
  } catch (error) {
    return {
      ok: false,
      error: `Compaction failed, the session is left as it was: ${messageOf(error)}`,
      usage,
    };
  }
  if (summary.trim() === '')
    return { ok: false, error: 'Compaction failed, the session is left as it was: the model returned an empty summary.', usage };
  return {
    ok: true,
    messages: compactedHistory(split, summary),
    usage: usage ?? { inputTokens: 0, outputTokens: 0 },
    summarised: split.older.length,
  };
}

/** The context's size between requests: the provider's last count plus an estimate of what came after. */
export class ContextTracker {
  readonly window: number;
  readonly clearing: ClearingPolicy | undefined;
  readonly compaction: CompactionPolicy | undefined;
  readonly turnBudgetShare: number | undefined;
  readonly reserveTokens: number;
  /** The last count: tokens of the history up to `length` messages, tools and system included. */
  private anchor: { tokens: number; length: number } | undefined;
  /** Tools and system prompt, estimated, until a provider count calibrates it. */
  private overhead = 0;

  constructor(model: string, options: ContextOptions | undefined, maxTokens: number | undefined) {
    this.window = contextWindowFor(model, options?.window);
    this.clearing = options?.clearing === false ? undefined : { ...DEFAULT_CLEARING, ...options?.clearing };
    this.compaction = options?.compaction === false ? undefined : { ...DEFAULT_COMPACTION, ...options?.compaction };
    this.turnBudgetShare = options?.turnBudget === false ? undefined : (options?.turnBudget ?? TURN_BUDGET_SHARE);
    this.reserveTokens = Math.min(maxTokens ?? DEFAULT_RESERVE_TOKENS, Math.floor(this.window / 4));
  }

  /** Before a request: what the system prompt and tools add, by estimate. */
  sending(system: string, toolsJSON: string): void {
    if (this.anchor === undefined) this.overhead = textTokens(system) + textTokens(toolsJSON);
  }

  /** After a reply: the provider's count of the prompt, plus the reply, covers `length` messages. */
  counted(usage: Usage, sent: readonly Message[], length: number): void {
    if (usage.inputTokens <= 0) return;
    this.overhead = Math.max(0, usage.inputTokens - messagesTokens(sent));
    this.anchor = { tokens: usage.inputTokens + usage.outputTokens, length };
  }

  tokens(messages: readonly Message[]): number {
    if (this.anchor === undefined || this.anchor.length > messages.length) return this.overhead + messagesTokens(messages);
    return this.anchor.tokens + messagesTokens(messages.slice(this.anchor.length));
  }

  /** The history was rewritten (cleared or compacted): count it afresh from the calibrated overhead. */
  rewritten(messages: readonly Message[]): void {
    this.anchor = { tokens: this.overhead + messagesTokens(messages), length: messages.length };
  }

  needsCompaction(messages: readonly Message[]): boolean {
    return this.compaction !== undefined && this.tokens(messages) > this.window * this.compaction.trigger;
  }

  /**
   * Clears old results in place when the history with the new results reaches the trigger (see
   * decideClearing); each cleared result is saved to a spill file its stub names. Returns how many
   * were cleared.
   */
  async clearOld(messages: Message[], incoming: readonly ToolCallResult[], session: SessionState): Promise<number> {
    if (this.clearing === undefined) return 0;
    const incomingTokens = incoming.reduce((sum, r) => sum + textTokens(textBlocks(r.content)), 0);
    const decision = decideClearing(
      { messages, contextTokens: this.tokens(messages) + incomingTokens, window: this.window },
      this.clearing,
    );
    if (!decision.clear) return 0;
    const chosen = decision.results;
    const files = new Map<string, string>();
    for (const ref of chosen) {
      const part = messages[ref.messageIndex].content[ref.partIndex];
      if (part.type === 'tool_result')
        files.set(ref.toolUseId, await spillText(session, textBlocks(part.content), `cleared-${ref.toolName}`));
    }
    messages.splice(0, messages.length, ...withCleared(messages, chosen, files));
    this.rewritten(messages);
    return chosen.length;
  }

  /** Cuts a batch's results to their fair shares of the turn budget (head + tail, spill file, pointer). */
  async fitTurn(results: ToolCallResult[], messages: readonly Message[], session: SessionState): Promise<ToolCallResult[]> {
    if (this.turnBudgetShare === undefined || results.length === 0) return results;
    const budget = turnBudgetChars(
      { window: this.window, contextTokens: this.tokens(messages), reserveTokens: this.reserveTokens },
      this.turnBudgetShare,
    );
    const sizes = results.map((r) => r.content.reduce((sum, b) => sum + (b.type === 'text' ? b.text.length : 0), 0));
    const caps = fairShares(sizes, budget);
    return Promise.all(
      results.map(async (result, i) => {
        if (caps[i] >= sizes[i]) return result;
        const cut = await applyBudget({ content: result.content, isError: result.isError }, caps[i], session, result.toolName);
        return { ...result, content: cut.content };
      }),
    );
  }
}
