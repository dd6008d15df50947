// DPoP (RFC 9449, MCP's SEP-1932): tokens bound to a key this client holds, so a stolen token is
// useless without the key. Used where the authorization server offers it (its metadata lists
// ES256) or a stored token is already bound. The SDK signs the proofs and follows nonce
// challenges; this keeps one key per server, stored with that server's tokens (0600), so a bound
// token stays usable across runs. Only ES256: the algorithm every DPoP server is expected to take.
import { DpopSession, generateDpopKeyPair, type OAuthDiscoveryState, type StoredOAuthTokens } from '@modelcontextprotocol/client';
import type { OAuthStore, StoredDpopKey } from './oauth-store.js';

const ALG = 'ES256';
const CURVE = { name: 'ECDSA', namedCurve: 'P-256' } as const;

/** Whether to bind tokens: the server offers ES256 proofs, or a stored token is bound already. Pure. */
export function wantsDpop(discovery: OAuthDiscoveryState | undefined, tokens: StoredOAuthTokens | undefined): boolean {
  if (tokens?.token_type?.toLowerCase() === 'dpop') return true;
  // RFC 9449 §5.1's field, which the SDK's metadata type does not name.
  const metadata: Record<string, unknown> | undefined = discovery?.authorizationServerMetadata;
  const algs = metadata?.dpop_signing_alg_values_supported;
  return Array.isArray(algs) && algs.includes(ALG);
}

async function fromStored(key: StoredDpopKey): Promise<DpopSession> {
  const [privateKey, publicKey] = await Promise.all([
    crypto.subtle.importKey('jwk', key.privateJwk, CURVE, false, ['sign']),
    crypto.subtle.importKey('jwk', key.publicJwk, CURVE, true, ['verify']),
  ]);
  return DpopSession.create({ keyPair: { privateKey, publicKey, publicJwk: key.publicJwk, thumbprint: key.thumbprint, alg: ALG } });
}

async function created(store: OAuthStore): Promise<DpopSession> {
  const pair = await generateDpopKeyPair({ alg: ALG, extractable: true });
  const privateJwk = await crypto.subtle.exportKey('jwk', pair.privateKey);
  const dpopKey: StoredDpopKey = { privateJwk, publicJwk: pair.publicJwk, thumbprint: pair.thumbprint };
  store.update((record) => ({ ...record, dpopKey }));
  return fromStored(dpopKey);
}

/** The server's DPoP session: its stored key, or a new one stored now. */
export function dpopSession(store: OAuthStore): Promise<DpopSession> {
  const stored = store.read().dpopKey;
  return stored ? fromStored(stored) : created(store);
}
