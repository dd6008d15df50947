// Enterprise-managed authorization ("cross-app access", the Identity Assertion Authorization
// Grant): the person's ID token from the enterprise IdP is exchanged at the IdP (RFC 8693) for an
// ID-JAG, a grant naming the MCP server's authorization server and resource, which that server
// takes as a jwt-bearer grant (RFC 7523) for an access token. The SDK's helpers send the exchange;
// this supplies the ID token (configured, or printed by a command, never stored) and the IdP's fetch.
import { execFile } from 'node:child_process';
import { discoverAuthorizationServerMetadata, type FetchLike, requestJwtAuthorizationGrant } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { messageOf } from '../util/message.js';

export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** The enterprise IdP of `oauth.idp`: where the ID token is exchanged, as which client. */
export interface CrossAppIdpConfig {
  /** The IdP's issuer URL: its token endpoint is discovered from its metadata. */
  issuer?: string;
  /** The IdP's token endpoint, instead of discovery. */
  tokenUrl?: string;
  /** This client at the IdP. */
  clientId: string;
  clientSecret?: string;
  /** The person's ID token (usually `${VAR}` from the environment)... */
  idToken?: string;
  /** ...or a shell command printing a fresh one, run each time a grant is needed. */
  idTokenCommand?: string;
}

const ID_TOKEN_COMMAND_TIMEOUT_MS = 60_000;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Checks an ID token from `source` (the setting or command naming it) and returns it trimmed.
 * The messages never quote the text: it may be a credential.
 */
export function checkIdToken(text: string, source: string): { ok: true; token: string } | { ok: false; message: string } {
  const token = text.trim();
  if (token === '') return { ok: false, message: `${source} gave an empty ID token (is its environment variable set?)` };
  // A compact JWS (header.payload.signature) or JWE (five parts), as ID tokens are sent.
  const parts = token.split('.');
  const compact = (parts.length === 3 || parts.length === 5) && parts.every((part, i) => BASE64URL.test(part) || (i > 0 && part === ''));
  if (!compact) return { ok: false, message: `${source} gave ${token.length} characters that are not a JWT (header.payload.signature)` };
  return { ok: true, token };
}

/** The token request the MCP server's authorization server gets: the ID-JAG as a jwt-bearer grant. */
export function jwtBearerRequest(assertion: string, scope?: string): URLSearchParams {
  return new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion, ...(scope ? { scope } : {}) });
}

/** The first line of a failed command's stderr, shortened, for the error message. */
function firstLine(stderr: string): string {
  const line = stderr.trim().split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** Runs `oauth.idp.idTokenCommand` through the shell; its stdout is the ID token. */
export function runIdTokenCommand(command: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('/bin/sh', ['-c', command], { env, timeout: ID_TOKEN_COMMAND_TIMEOUT_MS, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (!error) return resolve(stdout);
      const why = error.killed
        ? `gave no answer within ${ID_TOKEN_COMMAND_TIMEOUT_MS / 1000} s`
        : `failed (exit code ${error.code ?? '?'})`;
      const detail = firstLine(stderr);
      reject(new Error(`oauth.idp.idTokenCommand ${why}${detail ? `: ${detail}` : ''}`));
    });
  });
}

async function idToken(idp: CrossAppIdpConfig, env: NodeJS.ProcessEnv): Promise<string> {
  const [text, source] =
    idp.idTokenCommand === undefined
      ? [idp.idToken ?? '', 'oauth.idp.idToken']
      : [await runIdTokenCommand(idp.idTokenCommand, env), 'oauth.idp.idTokenCommand'];
  const checked = checkIdToken(text, source);
  if (!checked.ok) throw new Error(checked.message);
  return checked.token;
}

/** Why metadata did not do: the fields a schema refused, rather than the schema's whole report. */
function metadataProblem(error: unknown): string {
  if (!(error instanceof z.ZodError)) return messageOf(error);
  const fields = [...new Set(error.issues.map((issue) => issue.path.join('.')))];
  return `its metadata lacks or mangles ${fields.join(', ')}`;
}

/** The IdP's token endpoint: configured, or from its OAuth or OpenID metadata. */
async function tokenEndpoint(idp: CrossAppIdpConfig, fetch: FetchLike): Promise<string> {
  if (idp.tokenUrl) return idp.tokenUrl;
  const issuer = String(idp.issuer);
  const metadata = await discoverAuthorizationServerMetadata(issuer, { fetchFn: fetch }).catch((error: unknown) => {
    throw new Error(
      `could not discover the IdP at ${issuer}: ${metadataProblem(error)}; set oauth.idp.tokenUrl to its token endpoint instead`,
    );
  });
  if (!metadata?.token_endpoint) {
    throw new Error(`the IdP at ${issuer} publishes no metadata with a token endpoint; set oauth.idp.tokenUrl instead`);
  }
  return metadata.token_endpoint;
}

export interface IdJagRequest {
  idp: CrossAppIdpConfig;
  /** The MCP server's authorization server (its issuer): the grant's audience. */
  authorizationServer?: string;
  /** The MCP server's resource, from its protected-resource metadata. */
  resource?: string;
  scope?: string;
  /** The fetch for the IdP (the network guard trusting its configured host). */
  fetch: FetchLike;
  env: NodeJS.ProcessEnv;
}

/** Exchanges the person's ID token at the IdP for an ID-JAG for this MCP server. */
export async function requestIdJag(request: IdJagRequest): Promise<string> {
  const { idp, authorizationServer, resource, scope, fetch } = request;
  if (!authorizationServer || !resource) {
    throw new Error(
      "cross-app access needs the server's protected-resource metadata (RFC 9728) to name its resource and authorization server; this server published none",
    );
  }
  const endpoint = await tokenEndpoint(idp, fetch);
  const result = await requestJwtAuthorizationGrant({
    tokenEndpoint: endpoint,
    audience: authorizationServer,
    resource,
    idToken: await idToken(idp, request.env),
    clientId: idp.clientId,
    ...(idp.clientSecret ? { clientSecret: idp.clientSecret } : {}),
    ...(scope ? { scope } : {}),
    fetchFn: fetch,
  }).catch((error: unknown) => {
    throw new Error(`the enterprise IdP (${endpoint}) gave no grant for this server: ${messageOf(error)}`);
  });
  return result.jwtAuthGrant;
}
