// OAuth 2.1 for HTTP MCP servers (MCP authorization spec), on the SDK's auth support: the SDK
// discovers protected-resource and authorization-server metadata, registers the client
// (dynamic registration, or a client ID metadata document URL), runs PKCE with the `resource`
// parameter and refreshes tokens; this provider stores what it is given (oauth-store.ts) and
// sends the person to the authorization page (oauth-callback.ts). Machine clients use the
// client-credentials grant with a configured client ID and secret; enterprise-managed clients the
// cross-app grant, an ID-JAG from their IdP (oauth-cross-app.ts); workloads the jwt-bearer grant
// with their identity token. Servers of the 2025-03-26 revision (no protected-resource metadata)
// are discovered here first (oauth-legacy.ts).
import { randomUUID } from 'node:crypto';
import {
  type AddClientAuthentication,
  createPrivateKeyJwtAuth,
  type DpopSession,
  isDpopNonceChallenge,
  extractWWWAuthenticateParams,
  type FetchLike,
  type StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientMetadata,
  type OAuthDiscoveryState,
  type OAuthClientProvider,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { listenForCallback, openInBrowser, type CallbackListener } from './oauth-callback.js';
import { type CrossAppIdpConfig, JWT_BEARER_GRANT, jwtBearerRequest, requestIdJag } from './oauth-cross-app.js';
import { guardedFetch } from './guarded-fetch.js';
import { dpopSession, wantsDpop } from './oauth-dpop.js';
import { discoverLegacyState } from './oauth-legacy.js';
import type { OAuthStore } from './oauth-store.js';
import { messageOf } from '../util/message.js';

export interface McpOAuthConfig {
  /** A pre-registered client (no dynamic registration then). */
  clientId?: string;
  clientSecret?: string;
  /** An https URL of this client's metadata document, used as client_id where the server supports it. */
  clientMetadataUrl?: string;
  scope?: string;
  /**
   * `client_credentials` for machine clients (needs clientId and clientSecret); `cross-app` for
   * an ID-JAG from the enterprise IdP `idp` (needs clientId and a secret or key too);
   * `jwt-bearer` for a workload identity token (`assertion`, RFC 7523); default
   * authorization_code.
   */
  grant?: 'authorization_code' | 'client_credentials' | 'cross-app' | 'jwt-bearer';
  /** Local port of the redirect URI (default: one picked once and kept). */
  callbackPort?: number;
  /** PEM (PKCS#8) key: the client authenticates with a signed JWT (private_key_jwt, RFC 7523). */
  privateKey?: string;
  /** The assertion's algorithm, matching the key (default RS256). */
  signingAlgorithm?: string;
  /** The enterprise IdP of the cross-app grant. */
  idp?: CrossAppIdpConfig;
  /** The jwt-bearer grant's assertion: a workload identity JWT whose audience is the authorization server. */
  assertion?: string;
}

export interface OAuthProviderOptions {
  /** The server's name, for the network guard's messages. */
  server: string;
  store: OAuthStore;
  /** The MCP server's URL. */
  serverUrl: string;
  config: McpOAuthConfig;
  /** How long to wait for the person to finish in the browser. */
  authorizationTimeoutMs: number;
  /** Tells the person where to go (the URL is also opened in the browser). */
  notify: (message: string) => void;
  env?: NodeJS.ProcessEnv;
}

const DEFAULT_CALLBACK_PORT = 0;

export class McpOAuthProvider implements OAuthClientProvider {
  private listener?: CallbackListener;
  private port: number;
  /** The `state` sent with the authorization request; the redirect must bring it back. */
  private expectedState?: string;
  /** The current transport's guarded fetch, for discovery done here. */
  private fetch?: FetchLike;
  /** Whether a 401 or 403 challenge of the server named its protected-resource metadata. */
  private challengedWithResourceMetadata = false;
  private started = 0;
  /** What the SDK's discovery found, the cross-app grant's audience and resource. */
  private issuer?: string;
  private resource?: string;
  private idpFetch?: FetchLike;
  /** One session per provider: it also keeps the servers' DPoP nonces. */
  private dpopKey?: Promise<DpopSession>;
  /** Set with a private key: the SDK calls it to sign each token request's client assertion. */
  readonly addClientAuthentication?: AddClientAuthentication;

  constructor(private readonly options: OAuthProviderOptions) {
    this.port = options.config.callbackPort ?? options.store.read().callbackPort ?? DEFAULT_CALLBACK_PORT;
    const { clientId, privateKey, signingAlgorithm } = options.config;
    // The assertion's issuer and subject are the client ID; its audience the authorization server.
    if (clientId && privateKey)
      this.addClientAuthentication = createPrivateKeyJwtAuth({
        issuer: clientId,
        subject: clientId,
        privateKey,
        alg: signingAlgorithm ?? 'RS256',
      });
  }

  state(): string {
    this.expectedState = randomUUID();
    return this.expectedState;
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.config.clientMetadataUrl;
  }

  /** A grant with no authorization page. */
  private get machine(): boolean {
    const { grant } = this.options.config;
    return grant === 'client_credentials' || grant === 'cross-app' || grant === 'jwt-bearer';
  }

  get redirectUrl(): string | undefined {
    return this.machine ? undefined : `http://127.0.0.1:${this.port}/oauth/callback`;
  }

  get clientMetadata(): OAuthClientMetadata {
    const { clientSecret, privateKey, scope, grant } = this.options.config;
    return {
      client_name: 'wield',
      redirect_uris: this.machine ? [] : [String(this.redirectUrl)],
      grant_types:
        grant === 'cross-app' || grant === 'jwt-bearer'
          ? [JWT_BEARER_GRANT]
          : this.machine
            ? ['client_credentials']
            : ['authorization_code', 'refresh_token'],
      response_types: this.machine ? [] : ['code'],
      token_endpoint_auth_method: privateKey ? 'private_key_jwt' : clientSecret ? 'client_secret_basic' : 'none',
      ...(scope ? { scope } : {}),
    };
  }

  clientInformation(): StoredOAuthClientInformation | undefined {
    const { clientId, clientSecret } = this.options.config;
    if (clientId) return { client_id: clientId, ...(clientSecret ? { client_secret: clientSecret } : {}) };
    return this.options.store.read().client;
  }

  saveClientInformation(client: StoredOAuthClientInformation): void {
    this.options.store.update((record) => ({ ...record, client }));
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.options.store.read().tokens;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.options.store.update((record) => ({ ...record, tokens }));
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.options.store.update((record) => ({ ...record, codeVerifier }));
  }

  codeVerifier(): string {
    const verifier = this.options.store.read().codeVerifier;
    if (!verifier) throw new Error('no PKCE code verifier saved: the authorization has to start again');
    return verifier;
  }

  saveDiscoveryState(discovery: OAuthDiscoveryState): void {
    this.options.store.update((record) => ({ ...record, discovery }));
  }

  /**
   * What discovery found before; on the first authorization of a server without protected-
   * resource metadata, the 2025-03-26 discovery (oauth-legacy.ts), kept like the SDK's own.
   */
  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    const stored = this.options.store.read().discovery;
    if (stored || !this.fetch) return stored;
    const legacy = await discoverLegacyState({
      serverUrl: this.options.serverUrl,
      fetch: this.fetch,
      challengedWithResourceMetadata: this.challengedWithResourceMetadata,
    });
    if (legacy) this.saveDiscoveryState(legacy);
    return legacy;
  }

  /**
   * The fetch for a new transport: the given guarded fetch, noting whether the server's 401 and
   * 403 challenges name protected-resource metadata (RFC 9728 §5.1); `discovery` is the same fetch
   * with the transport's headers, for discovery done here.
   */
  observe(fetch: FetchLike, discovery: FetchLike): FetchLike {
    this.fetch = discovery;
    this.challengedWithResourceMetadata = false;
    const server = new URL(this.options.serverUrl).href;
    return async (input, init) => {
      const response = await fetch(input, init);
      const challenge = (response.status === 401 || response.status === 403) && new URL(input).href === server;
      if (challenge && extractWWWAuthenticateParams(response).resourceMetadataUrl) this.challengedWithResourceMetadata = true;
      // A refused token may mean the server moved to another authorization server (SEP-2352):
      // discovery runs again, and a client registered with the old one is not reused there.
      const refused = challenge && response.status === 401 && !isDpopNonceChallenge(response);
      if (refused && new Headers(init?.headers).has('authorization')) this.invalidateCredentials('discovery');
      return response;
    };
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    this.options.store.update((record) => {
      if (scope === 'all') return { url: record.url, callbackPort: record.callbackPort };
      if (scope === 'client') return { ...record, client: undefined, tokens: undefined };
      if (scope === 'tokens') return { ...record, tokens: undefined };
      if (scope === 'verifier') return { ...record, codeVerifier: undefined };
      return { ...record, discovery: undefined };
    });
  }

  /** DPoP where the authorization server offers it (oauth-dpop.ts); plain bearer tokens elsewhere. */
  dpop(): Promise<DpopSession> | undefined {
    const record = this.options.store.read();
    if (!wantsDpop(record.discovery, record.tokens)) return undefined;
    this.dpopKey ??= dpopSession(this.options.store);
    return this.dpopKey;
  }

  saveAuthorizationServerUrl(issuer: string): void {
    this.issuer = issuer;
  }

  saveResourceUrl(resource: string): void {
    this.resource = resource;
  }

  async prepareTokenRequest(scope?: string): Promise<URLSearchParams | undefined> {
    const { grant, idp, assertion } = this.options.config;
    if (grant === 'jwt-bearer') {
      // The token itself is never quoted: it is a credential.
      if (!assertion?.trim()) throw new Error('oauth.assertion is empty (is its environment variable set?)');
      return jwtBearerRequest(assertion.trim(), scope);
    }
    if (grant === 'cross-app' && idp) {
      // The IdP is the person's configured choice: its host is trusted like the server's own.
      this.idpFetch ??= guardedFetch({ server: this.options.server, url: String(idp.tokenUrl ?? idp.issuer) });
      const assertion = await requestIdJag({
        idp,
        authorizationServer: this.issuer,
        resource: this.resource,
        scope,
        fetch: this.idpFetch,
        env: this.options.env ?? process.env,
      });
      return jwtBearerRequest(assertion, scope);
    }
    if (!this.machine) return undefined;
    return new URLSearchParams({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) });
  }

  /** Picks and keeps the callback port before the first authorization (the redirect URI names it). */
  async prepare(): Promise<void> {
    if (this.machine || this.port !== 0) return;
    const probe = await listenForCallback(0, 1);
    this.port = probe.port;
    probe.close();
    const port = this.port;
    this.options.store.update((record) => ({ ...record, callbackPort: port }));
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (this.options.config.grant === 'cross-app')
      throw new Error('the cross-app grant has no authorization page; check oauth.clientId, its secret or key, and oauth.idp');
    if (this.options.config.grant === 'jwt-bearer')
      throw new Error('the jwt-bearer grant has no authorization page; check oauth.clientId and oauth.assertion');
    if (this.machine) throw new Error('the client-credentials grant has no authorization page; check clientId and clientSecret');
    this.listener?.close();
    this.started++;
    this.listener = await listenForCallback(this.port, this.options.authorizationTimeoutMs);
    const url = authorizationUrl.toString();
    this.options.notify(`authorize in the browser: ${url}`);
    await openInBrowser(url, this.options.env).catch((error: unknown) =>
      this.options.notify(`could not open a browser (${messageOf(error)}); open the URL above by hand`),
    );
  }

  /** After the SDK asked for a redirect: the callback's parameters, once the person is done. */
  async authorizationResult(): Promise<URLSearchParams> {
    const listener = this.listener;
    if (!listener) throw new Error('no authorization is in progress');
    const params = await listener.params.finally(() => {
      if (this.listener === listener) this.listener = undefined;
    });
    if (this.expectedState && params.get('state') !== this.expectedState) {
      throw new Error('the authorization redirect carried the wrong state (a forged or stale redirect); try again');
    }
    const error = params.get('error');
    if (error)
      throw new Error(
        `the authorization server refused: ${error}${params.get('error_description') ? ` (${params.get('error_description')})` : ''}`,
      );
    return params;
  }

  get awaitingAuthorization(): boolean {
    return this.listener !== undefined;
  }

  /** How many authorizations were started, to tell later whether a caller started another. */
  get authorizations(): number {
    return this.started;
  }

  /**
   * Gives up the authorization in progress (started after `since`, when given): nobody will wait
   * for it, so its callback port is released now rather than at the timeout.
   */
  abandon(since?: number): void {
    if (!this.listener || since === this.started) return;
    this.listener.close();
    this.listener = undefined;
  }
}

/**
 * Runs a request of a connected client; when the server asked for authorization (a 401 after
 * initialize) or for a wider scope (403 insufficient_scope, step-up) and the person was sent to
 * the authorization page, waits for them, finishes the authorization on the same transport and
 * runs the request once more (a second refusal is the server's answer, and an authorization it
 * started is abandoned).
 */
export async function withAuthorization<T>(
  oauth: McpOAuthProvider | undefined,
  transport: StreamableHTTPClientTransport | undefined,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof UnauthorizedError) || !oauth?.awaitingAuthorization || !transport) throw error;
    const params = await oauth.authorizationResult().catch((reason: unknown) => {
      throw new Error(`authorization failed: ${messageOf(reason)}`);
    });
    await transport.finishAuth(params);
    const mark = oauth.authorizations;
    try {
      return await run();
    } catch (retryError) {
      oauth.abandon(mark);
      throw retryError;
    }
  }
}
