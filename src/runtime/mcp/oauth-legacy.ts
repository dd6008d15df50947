// Authorization discovery for MCP servers of the 2025-03-26 revision, which have no protected-
// resource metadata (RFC 9728). That revision's authorization §2.3.2 "Server Metadata Discovery"
// makes the MCP server's origin the *authorization base URL*: the metadata lives at
// `{origin}/.well-known/oauth-authorization-server`, and the server behind that origin is the
// authorization server. Such servers often mount their authorization routes under a path
// (`/oauth`), so the metadata's `issuer` names that path while it was fetched from the root; the
// SDK then refuses it, rightly by RFC 8414 §3.3 (the issuer must be the URL the metadata was
// derived from). A path difference on the same origin impersonates nobody, so here the metadata
// is accepted when its issuer and every endpoint are on the MCP server's own origin, and handed to
// the SDK as discovery state. Any other origin stays refused; servers with protected-resource
// metadata never come here, so the SDK's RFC 8414 check stays in force for them.
import {
  type AuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  type FetchLike,
  LATEST_PROTOCOL_VERSION,
  type OAuthDiscoveryState,
  specTypeSchemas,
} from '@modelcontextprotocol/client';

export type LegacyMetadataDecision = { ok: true; metadata: AuthorizationServerMetadata } | { ok: false; message: string };

const ENDPOINTS = ['authorization_endpoint', 'token_endpoint', 'registration_endpoint'] as const;

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * Whether metadata found at the MCP server's root may be used for that server. An issuer that is
 * the root itself passes RFC 8414 §3.3 as it stands (the SDK accepts it, endpoints anywhere);
 * any other issuer, and then the authorization, token and registration endpoints too, must be on
 * the server's origin (scheme, host and port), since under 2025-03-26 that origin is the
 * authorization base URL.
 */
export function acceptLegacyMetadata(serverUrl: string | URL, metadata: AuthorizationServerMetadata): LegacyMetadataDecision {
  const origin = new URL(serverUrl).origin;
  if (metadata.issuer === origin || metadata.issuer === `${origin}/`) return { ok: true, metadata };
  const fields: [string, string | undefined][] = [
    ['issuer', metadata.issuer],
    ...ENDPOINTS.map((name): [string, string | undefined] => [name, metadata[name]]),
  ];
  for (const [name, value] of fields) {
    if (value === undefined) continue;
    if (originOf(value) !== origin)
      return {
        ok: false,
        message: `the authorization server metadata at ${origin}/.well-known/oauth-authorization-server names ${name} ${value}, not on the server's origin ${origin}; a server without protected-resource metadata (2025-03-26) must be its own authorization server, so this is refused`,
      };
  }
  return { ok: true, metadata };
}

/** How long each discovery request may take. */
export const LEGACY_DISCOVERY_TIMEOUT_MS = 10_000;

export interface LegacyDiscoveryOptions {
  serverUrl: string | URL;
  /** The transport's guarded fetch. */
  fetch: FetchLike;
  /** Whether the server's 401 challenge named protected-resource metadata (RFC 9728 §5.1). */
  challengedWithResourceMetadata: boolean;
  timeoutMs?: number;
}

/**
 * Discovery state for a server without protected-resource metadata whose root metadata is
 * accepted above; undefined where the SDK's own discovery applies (the server has protected-
 * resource metadata, or no usable root metadata: the SDK then tries its other locations and the
 * 2025-03-26 default endpoints). Throws with the mismatch when the root metadata is refused.
 */
export async function discoverLegacyState(options: LegacyDiscoveryOptions): Promise<OAuthDiscoveryState | undefined> {
  if (options.challengedWithResourceMetadata) return undefined;
  const timeoutMs = options.timeoutMs ?? LEGACY_DISCOVERY_TIMEOUT_MS;
  const timed: FetchLike = (url, init) => options.fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  const hasResourceMetadata = await discoverOAuthProtectedResourceMetadata(options.serverUrl, undefined, timed).then(
    () => true,
    () => false,
  );
  if (hasResourceMetadata) return undefined;
  const base = new URL('/', options.serverUrl);
  const response = await timed(new URL('/.well-known/oauth-authorization-server', base), {
    headers: { 'MCP-Protocol-Version': LATEST_PROTOCOL_VERSION, Accept: 'application/json' },
  }).catch(() => undefined);
  if (!response?.ok) {
    await response?.body?.cancel();
    return undefined;
  }
  const parsed = specTypeSchemas.OAuthMetadata['~standard'].validate(await response.json().catch(() => undefined));
  if (parsed.issues !== undefined) return undefined;
  const decision = acceptLegacyMetadata(options.serverUrl, parsed.value);
  if (!decision.ok) throw new Error(decision.message);
  return { authorizationServerUrl: base.href, authorizationServerMetadata: decision.metadata };
}
