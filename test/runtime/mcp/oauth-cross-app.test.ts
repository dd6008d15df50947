// The cross-app grant (enterprise-managed authorization): its settings, the ID token checks, the
// ID-token command as a real process, and the exchange against a real IdP on loopback. The whole
// flow against the conformance suite's IdP and authorization server is in conformance-client.test.ts.
import fc from 'fast-check';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { parseServerConfig, parseServerRecord } from '../../../src/runtime/mcp/config.js';
import { guardedFetch } from '../../../src/runtime/mcp/guarded-fetch.js';
import {
  type CrossAppIdpConfig,
  checkIdToken,
  JWT_BEARER_GRANT,
  jwtBearerRequest,
  requestIdJag,
  runIdTokenCommand,
} from '../../../src/runtime/mcp/oauth-cross-app.js';

const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

const url = 'https://mcp.example.com/mcp';
const ID_TOKEN = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJwZXJzb24ifQ.c2lnbmF0dXJl';
const idp = { issuer: 'https://idp.example.com', clientId: 'idp-client', idToken: '${ID_TOKEN}' };
const crossApp = { grant: 'cross-app', clientId: 'c', clientSecret: 's', idp };

function configError(oauth: unknown): string {
  const parsed = parseServerConfig({ type: 'http', url, oauth });
  return parsed.ok ? 'accepted' : parsed.message;
}

describe('cross-app settings', () => {
  it('take an IdP with an ID token or a command printing one, and expand secrets from the environment', () => {
    expect(parseServerConfig({ type: 'http', url, oauth: crossApp })).toMatchObject({ ok: true, config: { oauth: crossApp } });
    const command = { ...crossApp, idp: { tokenUrl: 'https://idp.example.com/token', clientId: 'i', idTokenCommand: 'idp-login --print' } };
    expect(configError(command)).toBe('accepted');
    const keyed = { grant: 'cross-app', clientId: 'c', privateKey: '$KEY', idp };
    expect(configError(keyed)).toBe('accepted');
    const withSecret = { ...crossApp, idp: { ...idp, clientSecret: '${IDP_SECRET}' } };
    const set = parseServerRecord({ s: { type: 'http', url, oauth: withSecret } }, 'test', { ID_TOKEN, IDP_SECRET: 'shh' });
    const server = set.servers.s;
    expect(server && 'url' in server ? server.oauth : undefined).toMatchObject({ idp: { idToken: ID_TOKEN, clientSecret: 'shh' } });
  });

  it('refuse what the grant cannot run with, saying what is missing', () => {
    expect(configError({ grant: 'cross-app', clientId: 'c', clientSecret: 's' })).toContain('that grant needs oauth.idp');
    expect(configError({ clientId: 'c', clientSecret: 's', idp })).toContain('oauth.idp goes with "grant": "cross-app"');
    expect(configError({ grant: 'cross-app', clientId: 'c', idp })).toContain(
      'needs oauth.clientId with oauth.clientSecret or oauth.privateKey',
    );
    expect(configError({ ...crossApp, idp: { ...idp, tokenUrl: 'https://idp.example.com/t' } })).toContain('"issuer"');
    expect(configError({ ...crossApp, idp: { clientId: 'i', idToken: 't' } })).toBe(
      'oauth.idp: needs "issuer" (its token endpoint is discovered) or "tokenUrl", one of the two',
    );
    expect(configError({ ...crossApp, idp: { ...idp, idTokenCommand: 'x' } })).toContain('"idTokenCommand" (printing one)');
    expect(configError({ ...crossApp, idp: { issuer: 'https://idp.example.com', idToken: 't' } })).toBe(
      "oauth.idp.clientId: required: this client's ID at the IdP",
    );
    expect(configError({ ...crossApp, idp: { ...idp, issuer: 'ldap://idp' } })).toContain('oauth.idp.issuer must be an http(s) URL');
    expect(configError({ ...crossApp, idp: { ...idp, audience: 'x' } })).toContain('audience');
  });
});

describe('ID tokens', () => {
  it('are compact JWTs, trimmed; anything else is refused without quoting it', () => {
    expect(checkIdToken(`  ${ID_TOKEN}\n`, 'oauth.idp.idToken')).toEqual({ ok: true, token: ID_TOKEN });
    expect(checkIdToken('aGVhZA.a2V5.aXY.Y2lwaGVy.dGFn', 'x').ok).toBe(true);
    expect(checkIdToken(' \n', 'oauth.idp.idToken')).toEqual({
      ok: false,
      message: 'oauth.idp.idToken gave an empty ID token (is its environment variable set?)',
    });
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9_+/=]{12,60}$/), (text) => {
        const checked = checkIdToken(`${text}.${text}`, 'oauth.idp.idTokenCommand');
        if (checked.ok) return;
        expect(checked.message).toContain('not a JWT');
        expect(checked.message).not.toContain(text);
      }),
    );
  });

  it('come from a command through the shell; a failing command says how it failed', async () => {
    expect(await runIdTokenCommand(`printf '%s\\n' "$TOKEN"`, { PATH: process.env.PATH, TOKEN: ID_TOKEN })).toBe(`${ID_TOKEN}\n`);
    await expect(runIdTokenCommand('echo "not logged in" >&2; exit 3', { PATH: process.env.PATH })).rejects.toThrow(
      'oauth.idp.idTokenCommand failed (exit code 3): not logged in',
    );
  });
});

describe('the jwt-bearer request', () => {
  it('carries the grant as the assertion, with the scope when there is one', () => {
    expect(Object.fromEntries(jwtBearerRequest('jag', 'a b'))).toEqual({ grant_type: JWT_BEARER_GRANT, assertion: 'jag', scope: 'a b' });
    expect(jwtBearerRequest('jag').has('scope')).toBe(false);
  });
});

/** A loopback IdP: OpenID metadata (complete or not) and a token endpoint recording exchanges. */
async function startIdp(metadata: 'complete' | 'partial'): Promise<{ issuer: string; exchanges: URLSearchParams[] }> {
  const exchanges: URLSearchParams[] = [];
  let issuer = '';
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const json = (status: number, value: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (req.url === '/.well-known/openid-configuration') {
        const required = {
          response_types_supported: ['id_token'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['ES256'],
        };
        const base = {
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
        };
        return json(200, metadata === 'complete' ? { ...base, ...required } : base);
      }
      if (req.url !== '/token') return json(404, {});
      const params = new URLSearchParams(body);
      exchanges.push(params);
      if (params.get('subject_token') !== ID_TOKEN) return json(400, { error: 'invalid_grant', error_description: 'unknown person' });
      json(200, { access_token: 'the-id-jag', issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag', token_type: 'N_A' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { issuer, exchanges };
}

function exchange(config: CrossAppIdpConfig, target = { authorizationServer: 'https://as.example.com', resource: url }) {
  const fetch = guardedFetch({ server: 's', url: String(config.tokenUrl ?? config.issuer) });
  return requestIdJag({ idp: config, ...target, scope: 'files:read', fetch, env: { PATH: process.env.PATH } });
}

describe('the exchange at the IdP', () => {
  it('discovers the token endpoint and sends the RFC 8693 request naming the server', async () => {
    const { issuer, exchanges } = await startIdp('complete');
    const grant = await exchange({ issuer, clientId: 'idp-client', clientSecret: 'idp-secret', idToken: ID_TOKEN });
    expect(grant).toBe('the-id-jag');
    expect(Object.fromEntries(exchanges[0] ?? [])).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      subject_token: ID_TOKEN,
      audience: 'https://as.example.com',
      resource: url,
      client_id: 'idp-client',
      client_secret: 'idp-secret',
      scope: 'files:read',
    });
  });

  it('says what went wrong: thin metadata, a refused ID token, a server without resource metadata', async () => {
    const partial = await startIdp('partial');
    await expect(exchange({ issuer: partial.issuer, clientId: 'i', idToken: ID_TOKEN })).rejects.toThrow(
      /could not discover the IdP at .*: its metadata lacks or mangles response_types_supported, .*; set oauth\.idp\.tokenUrl/,
    );
    const tokenUrl = `${partial.issuer}/token`;
    const stranger = 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJzb21lb25lIn0.';
    const refused = exchange({ tokenUrl, clientId: 'i', idToken: stranger });
    await expect(refused).rejects.toThrow(
      `the enterprise IdP (${tokenUrl}) gave no grant for this server: Token exchange failed: invalid_grant - unknown person`,
    );
    await expect(refused.catch((error: Error) => error.message)).resolves.not.toContain(stranger);
    const before = partial.exchanges.length;
    await expect(
      exchange({ tokenUrl, clientId: 'i', idToken: ID_TOKEN }, { authorizationServer: 'https://as.example.com', resource: '' }),
    ).rejects.toThrow("needs the server's protected-resource metadata (RFC 9728)");
    expect(partial.exchanges.length).toBe(before);
  });
});
