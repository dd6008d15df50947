// Provider choice, model, endpoint and key from options and environment: a pure decision.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createProvider,
  DEFAULT_MODELS,
  PLACEHOLDER_API_KEY,
  ProviderError,
  resolveProviderConfig,
} from '../../../src/runtime/providers/index.js';

describe('resolveProviderConfig', () => {
  it('says exactly what to set when nothing is configured', () => {
    const result = resolveProviderConfig({ env: {} });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      for (const name of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', '--provider']) expect(result.message).toContain(name);
    }
  });

  it('picks Anthropic from its key, OpenAI from its key or base URL, Anthropic first', () => {
    expect(resolveProviderConfig({ env: { ANTHROPIC_API_KEY: 'a' } })).toEqual({
      ok: true,
      provider: 'anthropic',
      model: DEFAULT_MODELS.anthropic,
      apiKey: 'a',
    });
    expect(resolveProviderConfig({ env: { OPENAI_API_KEY: 'o' } })).toMatchObject({ ok: true, provider: 'openai', apiKey: 'o' });
    expect(resolveProviderConfig({ env: { OPENAI_API_KEY: 'o', ANTHROPIC_API_KEY: 'a' } })).toMatchObject({ provider: 'anthropic' });
  });

  it('needs no real key for a local OpenAI-compatible server', () => {
    expect(resolveProviderConfig({ env: { OPENAI_BASE_URL: 'http://localhost:11434/v1' } })).toEqual({
      ok: true,
      provider: 'openai',
      model: DEFAULT_MODELS.openai,
      baseURL: 'http://localhost:11434/v1',
      apiKey: PLACEHOLDER_API_KEY,
    });
  });

  it('a --base-url alone picks the dialect from its address, or names the flag that is missing', () => {
    expect(resolveProviderConfig({ baseURL: 'http://localhost:11434/v1', env: {} })).toMatchObject({
      ok: true,
      provider: 'openai',
      apiKey: PLACEHOLDER_API_KEY,
    });
    expect(resolveProviderConfig({ baseURL: 'http://gateway.local/anthropic', env: {} })).toMatchObject({
      ok: true,
      provider: 'anthropic',
    });
    const unknown = resolveProviderConfig({ baseURL: 'http://localhost:8080', env: {} });
    expect(unknown).toEqual({
      ok: false,
      message:
        '--base-url http://localhost:8080 does not say which API it speaks: add --provider anthropic, --provider openai (Chat Completions) or --provider openai-responses.',
    });
    expect(resolveProviderConfig({ baseURL: 'nope', env: {} })).toMatchObject({
      ok: false,
      message: expect.stringContaining('(from --base-url)'),
    });
    // The environment still decides first, as before.
    expect(resolveProviderConfig({ baseURL: 'http://localhost:11434/v1', env: { ANTHROPIC_API_KEY: 'a' } })).toMatchObject({
      provider: 'anthropic',
    });
  });

  it('takes the model from options, then WIELD_MODEL, then the default', () => {
    const env = { OPENAI_API_KEY: 'o', WIELD_MODEL: 'qwen3' };
    expect(resolveProviderConfig({ env })).toMatchObject({ model: 'qwen3' });
    expect(resolveProviderConfig({ env, model: 'llama3.2' })).toMatchObject({ model: 'llama3.2' });
  });

  it('explains a missing key for an explicit provider', () => {
    const result = resolveProviderConfig({ provider: 'openai-responses', env: { ANTHROPIC_API_KEY: 'a' } });
    expect(result).toMatchObject({ ok: false });
    if (!result.ok) expect(result.message).toMatch(/OPENAI_API_KEY.*OPENAI_BASE_URL/);
  });

  it('rejects an unknown provider name with the valid ones', () => {
    const result = resolveProviderConfig({ provider: 'gemini' as never, env: {} });
    expect(result).toEqual({ ok: false, message: 'Unknown provider "gemini". Use one of: anthropic, openai, openai-responses.' });
  });

  it('refuses a base URL that is not http(s)://host, from the flag or the environment', () => {
    const fromFlag = resolveProviderConfig({ provider: 'anthropic', baseURL: 'not-a-url', env: {} });
    expect(fromFlag).toMatchObject({ ok: false, message: expect.stringContaining('"not-a-url" (from --base-url)') });
    const fromEnv = resolveProviderConfig({ env: { OPENAI_BASE_URL: 'localhost:11434/v1' } });
    expect(fromEnv).toMatchObject({ ok: false, message: expect.stringContaining('"localhost:11434/v1" (from OPENAI_BASE_URL)') });
    // Only the URL in use is checked: a bad OpenAI URL does not matter to an Anthropic run.
    expect(resolveProviderConfig({ env: { ANTHROPIC_API_KEY: 'a', OPENAI_BASE_URL: 'nope' } })).toMatchObject({
      ok: true,
      provider: 'anthropic',
    });
  });

  it('an explicit provider and key always win over the environment (property)', () => {
    // Base URLs that are usable or unset: an unusable one is refused whatever else is given.
    const url = fc.oneof(fc.constant(''), fc.constant('  '), fc.webUrl());
    const envArb = fc.record(
      {
        ANTHROPIC_API_KEY: fc.string(),
        ANTHROPIC_BASE_URL: url,
        OPENAI_API_KEY: fc.string(),
        OPENAI_BASE_URL: url,
        WIELD_MODEL: fc.string(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(envArb, fc.constantFrom('anthropic' as const, 'openai' as const, 'openai-responses' as const), (env, provider) => {
        const result = resolveProviderConfig({ provider, apiKey: 'explicit', model: 'm', env });
        expect(result).toMatchObject({ ok: true, provider, apiKey: 'explicit', model: 'm' });
      }),
    );
  });

  it('either resolves with a non-empty key and model or explains itself (property)', () => {
    const value = fc.oneof(fc.constant(undefined), fc.constant(''), fc.constant('  '), fc.string({ minLength: 1 }));
    fc.assert(
      fc.property(fc.record({ ANTHROPIC_API_KEY: value, OPENAI_API_KEY: value, OPENAI_BASE_URL: value }), (env) => {
        const result = resolveProviderConfig({ env });
        if (result.ok) {
          expect(result.apiKey.trim()).not.toBe('');
          expect(result.model).not.toBe('');
        } else {
          expect(result.message.length).toBeGreaterThan(20);
        }
      }),
    );
  });
});

describe('createProvider', () => {
  it('throws a ProviderError with the configuration message when nothing is configured', async () => {
    await expect(createProvider({ env: {} })).rejects.toThrow(ProviderError);
    await expect(createProvider({ env: {} })).rejects.toThrow(/ANTHROPIC_API_KEY/);
  });

  it('builds each provider with its name', async () => {
    for (const provider of ['anthropic', 'openai', 'openai-responses'] as const) {
      const p = await createProvider({ provider, apiKey: 'k', env: {} });
      expect(p.name).toBe(provider);
    }
  });
});
