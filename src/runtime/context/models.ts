// What wield knows about common model ids: context window and list prices. Pure data.
// Prices in USD per million tokens, from the providers' published pages, read 2026-12-01:
//   Anthropic: https://platform.claude.com/docs/en/about-claude/pricing (base input, 5m and 1h
//   cache writes, cache hits, output); OpenAI: https://developers.openai.com/api/docs/models/<id>
//   (input, cached input, output; OpenAI bills no cache write).
// Long-prompt surcharges (e.g. GPT-5.4 past 272K input, Haiku 5.5 past 100K) are not modelled:
// the figure is a list-price estimate, never an invoice. Ids not listed cost what settings say.

export interface ModelPrice {
  input: number;
  output: number;
  cacheRead: number;
  /** 5-minute cache write; 0 where the provider bills none. */
  cacheWrite: number;
  /** 1-hour cache write. */
  cacheWrite1h?: number;
}

export interface ModelFacts {
  /** Tokens the model reads at most (prompt plus output). */
  contextWindow: number;
  price?: ModelPrice;
}

const anthropic = (input: number, output: number, cacheRead: number, contextWindow: number): ModelFacts => ({
  contextWindow,
  price: { input, output, cacheRead, cacheWrite: input * 1.25, cacheWrite1h: input * 2 },
});
const openai = (input: number, cacheRead: number, output: number, contextWindow: number): ModelFacts => ({
  contextWindow,
  price: { input, output, cacheRead, cacheWrite: 0 },
});

/** Keyed by id prefix: `claude-haiku-4-5-20251001` matches `claude-haiku-4-5`; the longest prefix wins. */
export const KNOWN_MODELS: Readonly<Record<string, ModelFacts>> = {
  'claude-fable-5-1': anthropic(10, 50, 0.25, 1_000_000),
  'claude-fable-5': anthropic(10, 50, 1, 1_000_000),
  'claude-opus-5-5': anthropic(4, 20, 0.2, 1_000_000),
  'claude-opus-5': anthropic(5, 25, 0.5, 1_000_000),
  'claude-opus-4-8': anthropic(5, 25, 0.5, 1_000_000),
  'claude-opus-4-7': anthropic(5, 25, 0.5, 1_000_000),
  'claude-opus-4-6': anthropic(5, 25, 0.5, 1_000_000),
  'claude-opus-4-5': anthropic(5, 25, 0.5, 200_000),
  'claude-opus-4-1': anthropic(15, 75, 1.5, 200_000),
  'claude-opus-4': anthropic(15, 75, 1.5, 200_000),
  'claude-sonnet-5-5': anthropic(2, 10, 0.1, 1_000_000),
  'claude-sonnet-5': anthropic(2, 10, 0.2, 1_000_000),
  'claude-sonnet-4-6': anthropic(3, 15, 0.3, 1_000_000),
  'claude-sonnet-4-5': anthropic(3, 15, 0.3, 200_000),
  'claude-sonnet-4': anthropic(3, 15, 0.3, 200_000),
  'claude-3-7-sonnet': anthropic(3, 15, 0.3, 200_000),
  'claude-haiku-5-5': anthropic(0.1, 0.5, 0.01, 1_000_000),
  'claude-haiku-4-5': anthropic(1, 5, 0.1, 200_000),
  'claude-3-5-haiku': anthropic(0.8, 4, 0.08, 200_000),
  // No cached-input discount is listed for the pro model.
  'gpt-5.4-pro': openai(30, 30, 180, 1_050_000),
  'gpt-5.4': openai(2.5, 0.25, 15, 1_050_000),
  'gpt-5.2': openai(1.75, 0.175, 14, 400_000),
  'gpt-5-mini': openai(0.25, 0.025, 2, 400_000),
  'gpt-5-nano': openai(0.05, 0.005, 0.4, 400_000),
  'gpt-5': openai(1.25, 0.125, 10, 400_000),
  'gpt-4.1-mini': openai(0.4, 0.1, 1.6, 1_047_576),
  'gpt-4.1': openai(2, 0.5, 8, 1_047_576),
  'gpt-4o-mini': openai(0.15, 0.075, 0.6, 128_000),
  'gpt-4o': openai(2.5, 1.25, 10, 128_000),
};

/** Window assumed for an id nobody described: the smallest common one, so clearing starts early rather than late. */
export const FALLBACK_CONTEXT_WINDOW = 128_000;

const PREFIXES = Object.keys(KNOWN_MODELS).sort((a, b) => b.length - a.length);

export function knownModel(model: string): ModelFacts | undefined {
  const id = model.toLowerCase().replace(/^(anthropic|openai)\//, '');
  const prefix = PREFIXES.find((p) => id === p || id.startsWith(`${p}-`) || id.startsWith(`${p}@`));
  return prefix === undefined ? undefined : KNOWN_MODELS[prefix];
}

/** The window to plan with: an explicit setting, else the table, else the fallback. */
export function contextWindowFor(model: string, configured?: number): number {
  return configured ?? knownModel(model)?.contextWindow ?? FALLBACK_CONTEXT_WINDOW;
}
