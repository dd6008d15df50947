// Who may talk to the HTTP gateway: the Host header must name the address the gateway is bound
// to (a page on another site that rebinds its DNS name to 127.0.0.1 still sends its own name as
// Host), and a browser's Origin must be loopback when the gateway is. Pure functions.
import { isIPv4, isIPv6 } from 'node:net';
import { localhostAllowedHostnames, validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';

function bare(host: string): string {
  return host.replace(/^\[|\]$/g, '').toLowerCase();
}

/** Exactly `localhost`, `::1` or an IPv4 address in 127.0.0.0/8 (not `127.0.0.1.example.com`). */
export function isLoopback(host: string): boolean {
  const name = bare(host);
  if (name === 'localhost' || name === '::1') return true;
  return isIPv4(name) && name.startsWith('127.');
}

function isWildcard(host: string): boolean {
  const name = bare(host);
  return name === '0.0.0.0' || name === '::';
}

/** A hostname as URL parsing shows it (IPv6 in brackets), the form the SDK's checks compare. */
function urlHostname(host: string): string {
  return isIPv6(bare(host)) ? `[${bare(host)}]` : bare(host);
}

/**
 * Host names a request may carry for a gateway bound to `bound`; undefined means any (a wildcard
 * bind without a configured list: the bearer token is then the only gate).
 */
export function allowedHostnames(bound: string, extra: readonly string[] = []): string[] | undefined {
  const listed = extra.map(urlHostname);
  if (isLoopback(bound)) return [...new Set([...localhostAllowedHostnames(), urlHostname(bound), ...listed])];
  if (isWildcard(bound)) return listed.length > 0 ? listed : undefined;
  return [...new Set([urlHostname(bound), ...listed])];
}

export type HttpGuardVerdict = { ok: true } | { ok: false; status: 403; message: string };

export interface HttpGuardInput {
  host: string | undefined;
  origin: string | undefined;
  /** From allowedHostnames(). */
  hosts: string[] | undefined;
  /** Whether browsers' Origin must be one of `hosts` (loopback gateways). */
  checkOrigin: boolean;
}

export function checkRequestHeaders(input: HttpGuardInput): HttpGuardVerdict {
  if (input.hosts) {
    const host = validateHostHeader(input.host, input.hosts);
    if (!host.ok) {
      return { ok: false, status: 403, message: `Forbidden: ${host.message}; this gateway answers only to ${input.hosts.join(', ')}` };
    }
  }
  if (input.checkOrigin && input.hosts) {
    const origin = validateOriginHeader(input.origin, input.hosts);
    if (!origin.ok)
      return { ok: false, status: 403, message: `Forbidden: requests from web pages of other origins are refused (${origin.message})` };
  }
  return { ok: true };
}
