// The OAuth provider's own decisions, without a server: when a refused token sends discovery
// back to the protected-resource metadata (an authorization server that moved, SEP-2352), and
// when tokens are DPoP-bound, to which key.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { McpOAuthProvider } from '../../../src/runtime/mcp/oauth.js';
import { dpopSession, wantsDpop } from '../../../src/runtime/mcp/oauth-dpop.js';
import { OAuthStore } from '../../../src/runtime/mcp/oauth-store.js';
import { tempDir } from './helpers.js';

const SERVER = 'https://mcp.example.com/mcp';
const discovery = { authorizationServerUrl: 'https://as1.example.com' };

function provider(): { oauth: McpOAuthProvider; store: OAuthStore } {
  const store = new OAuthStore(path.join(tempDir('oauth-provider'), 'server.json'), SERVER);
  store.update((record) => ({ ...record, discovery }));
  const oauth = new McpOAuthProvider({ server: 's', store, serverUrl: SERVER, config: {}, authorizationTimeoutMs: 1000, notify: () => {} });
  return { oauth, store };
}

const answering = (status: number) => async () => new Response(null, { status });

describe('discovery after a refused token', () => {
  it('is forgotten when the server refuses a token it was sent', async () => {
    const { oauth, store } = provider();
    const fetch = oauth.observe(answering(401), answering(200));
    await fetch(SERVER, { method: 'POST', headers: { Authorization: 'Bearer old' } });
    expect(store.read().discovery).toBeUndefined();
  });

  it('is kept on the first challenge (no token yet) and on other answers', async () => {
    const { oauth, store } = provider();
    await oauth.observe(answering(401), answering(200))(SERVER, { method: 'POST' });
    await oauth.observe(answering(200), answering(200))(SERVER, { method: 'POST', headers: { Authorization: 'Bearer ok' } });
    await oauth.observe(answering(401), answering(200))('https://mcp.example.com/other', { headers: { Authorization: 'Bearer x' } });
    expect(store.read().discovery).toEqual(discovery);
  });
});

describe('DPoP', () => {
  const offering = (algs: string[]) => ({
    authorizationServerUrl: 'https://as.example.com',
    authorizationServerMetadata: {
      issuer: 'https://as.example.com',
      authorization_endpoint: 'https://as.example.com/authorize',
      token_endpoint: 'https://as.example.com/token',
      response_types_supported: ['code'],
      dpop_signing_alg_values_supported: algs,
    },
  });

  it('binds tokens where the server offers ES256 proofs or a stored token is bound', () => {
    expect(wantsDpop(offering(['ES256', 'RS256']), undefined)).toBe(true);
    expect(wantsDpop(offering(['RS256']), undefined)).toBe(false);
    expect(wantsDpop(discovery, undefined)).toBe(false);
    expect(wantsDpop(undefined, { access_token: 't', token_type: 'DPoP' })).toBe(true);
    expect(wantsDpop(undefined, { access_token: 't', token_type: 'Bearer' })).toBe(false);
  });

  it('keeps one key per server across runs, stored with its tokens', async () => {
    const { store } = provider();
    const first = await dpopSession(store);
    const again = await dpopSession(store);
    expect(again.thumbprint).toBe(first.thumbprint);
    expect(store.read().dpopKey?.thumbprint).toBe(first.thumbprint);
    const proof = await again.buildProof({ htm: 'POST', htu: SERVER });
    expect(proof.split('.')).toHaveLength(3);
  });
});
