// Network guard for WebFetch: only public unicast addresses may be reached, checked after DNS
// resolution, and the checked address is pinned for the connection (see pinnedLookup) so a
// second DNS answer cannot swap in a private one (DNS rebinding).
import dns from 'node:dns';
import net from 'node:net';
import type { LookupFunction } from 'node:net';

export type AddressVerdict = { ok: boolean; reason: string };
export type ResolveVerdict = { ok: true; address: string; family: 4 | 6 } | { ok: false; reason: string };

/** IANA IPv4 Special-Purpose Address Registry (RFC 6890 and updates) plus multicast/reserved. */
const V4_BLOCKED: Array<[string, number, string]> = [
  ['0.0.0.0', 8, '"this network" (0.0.0.0/8)'],
  ['10.0.0.0', 8, 'private (10/8, RFC 1918)'],
  ['100.64.0.0', 10, 'shared CGNAT space (100.64/10, RFC 6598)'],
  ['127.0.0.0', 8, 'loopback (127/8)'],
  ['169.254.0.0', 16, 'link-local, including cloud metadata 169.254.169.254 (169.254/16)'],
  ['172.16.0.0', 12, 'private (172.16/12, RFC 1918)'],
  ['192.0.0.0', 24, 'IETF protocol assignments (192.0.0/24)'],
  ['192.0.2.0', 24, 'documentation (TEST-NET-1)'],
  ['192.88.99.0', 24, '6to4 relay anycast (192.88.99/24)'],
  ['192.168.0.0', 16, 'private (192.168/16, RFC 1918)'],
  ['198.18.0.0', 15, 'benchmarking (198.18/15)'],
  ['198.51.100.0', 24, 'documentation (TEST-NET-2)'],
  ['203.0.113.0', 24, 'documentation (TEST-NET-3)'],
  ['224.0.0.0', 4, 'multicast (224/4)'],
  ['240.0.0.0', 4, 'reserved, including broadcast (240/4)'],
];

/** IANA IPv6 Special-Purpose Address Registry; ranges that embed IPv4 are handled separately. */
const V6_BLOCKED: Array<[string, number, string]> = [
  ['::', 128, 'unspecified (::)'],
  ['::1', 128, 'loopback (::1)'],
  ['100::', 64, 'discard-only (100::/64)'],
  ['2001::', 23, 'IETF protocol assignments, including Teredo (2001::/23)'],
  ['2001:db8::', 32, 'documentation (2001:db8::/32)'],
  ['3fff::', 20, 'documentation (3fff::/20, RFC 9637)'],
  ['5f00::', 16, 'SRv6 SIDs (5f00::/16)'],
  ['fc00::', 7, 'unique local, including fd00:ec2::254 metadata (fc00::/7)'],
  ['fe80::', 10, 'link-local (fe80::/10)'],
  ['fec0::', 10, 'site-local, deprecated (fec0::/10)'],
  ['ff00::', 8, 'multicast (ff00::/8)'],
];

function blockList(entries: Array<[string, number, string]>, family: 'ipv4' | 'ipv6'): Array<[net.BlockList, string]> {
  return entries.map(([address, prefix, label]) => {
    const list = new net.BlockList();
    list.addSubnet(address, prefix, family);
    return [list, label];
  });
}

const V4_LISTS = blockList(V4_BLOCKED, 'ipv4');
const V6_LISTS = blockList(V6_BLOCKED, 'ipv6');

/**
 * Expands an IPv6 literal to its 16 bytes. Node has no public IPv6-to-bytes API and no IP library
 * is a dependency, so this small parser exists to find IPv4 addresses embedded in IPv6 forms.
 */
export function ipv6Bytes(ip: string): Uint8Array | undefined {
  if (net.isIPv6(ip) === false) return undefined;
  let text = ip.split('%')[0];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [left, right] = text.split('::');
  const head = left ? left.split(':') : [];
  const tail = right !== undefined && right !== '' ? right.split(':') : [];
  const groups = right === undefined ? head : [...head, ...Array<string>(8 - head.length - tail.length).fill('0'), ...tail];
  const bytes = new Uint8Array(16);
  groups.forEach((group, i) => {
    const value = parseInt(group, 16);
    bytes[i * 2] = value >> 8;
    bytes[i * 2 + 1] = value & 0xff;
  });
  return bytes;
}

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((value, i) => bytes[i] === value);
}

/** The IPv4 address an IPv6 form carries (mapped, compatible, NAT64, 6to4), if any. */
export function embeddedIPv4(ip: string): string | undefined {
  const bytes = ipv6Bytes(ip);
  if (!bytes) return undefined;
  const v4 = (offset: number) => Array.from(bytes.subarray(offset, offset + 4)).join('.');
  const zeros = (n: number) => Array<number>(n).fill(0);
  if (startsWith(bytes, [...zeros(10), 0xff, 0xff])) return v4(12); // ::ffff:0:0/96 IPv4-mapped
  if (startsWith(bytes, zeros(12)) && !startsWith(bytes, zeros(15))) return v4(12); // ::/96 IPv4-compatible (deprecated)
  if (startsWith(bytes, [0x00, 0x64, 0xff, 0x9b, ...zeros(8)])) return v4(12); // 64:ff9b::/96 NAT64 (RFC 6052)
  if (startsWith(bytes, [0x00, 0x64, 0xff, 0x9b, 0x00, 0x01])) return v4(12); // 64:ff9b:1::/48 local NAT64 (RFC 8215)
  if (startsWith(bytes, [0x20, 0x02])) return v4(2); // 2002::/16 6to4 (RFC 3056)
  return undefined;
}

const blockedV4 = (ip: string): string | undefined => V4_LISTS.find(([list]) => list.check(ip, 'ipv4'))?.[1];

/** Why an IP literal may not be reached, worded to follow the address ("is loopback (127/8)"), or undefined when it is public. */
function whyRefused(ip: string): string | undefined {
  const family = net.isIP(ip);
  if (family === 0) return 'is not an IP address';
  if (family === 4) {
    const label = blockedV4(ip);
    return label && `is ${label}`;
  }
  const inner = embeddedIPv4(ip);
  if (inner !== undefined) {
    const label = blockedV4(inner);
    return label && `embeds ${inner}, which is ${label}`;
  }
  const label = V6_LISTS.find(([list]) => list.check(ip, 'ipv6'))?.[1];
  return label && `is ${label}`;
}

/** Whether an IP literal is a public unicast address WebFetch may connect to. Pure. */
export function checkAddress(ip: string): AddressVerdict {
  const why = whyRefused(ip);
  if (why) return { ok: false, reason: net.isIP(ip) ? `${ip} ${why}` : `${JSON.stringify(ip)} ${why}` };
  const inner = embeddedIPv4(ip);
  if (inner !== undefined) return { ok: true, reason: `public IPv4 ${inner} embedded in ${ip}` };
  return { ok: true, reason: net.isIP(ip) === 4 ? 'public IPv4 address' : 'public IPv6 address' };
}

const LINK_LOCAL: Array<[net.BlockList, string]> = [
  ...blockList([['169.254.0.0', 16, 'link-local, where cloud metadata services live (169.254/16)']], 'ipv4'),
  ...blockList(
    [
      ['fe80::', 10, 'link-local (fe80::/10)'],
      ['fd00:ec2::254', 128, 'the AWS metadata service over IPv6 (fd00:ec2::254)'],
    ],
    'ipv6',
  ),
];

/**
 * Why an IP literal is link-local or a cloud metadata address, or undefined when it is neither.
 * These are refused even where private addresses are allowed: no real service lives there, but
 * metadata credentials do. Pure.
 */
export function linkLocalOrMetadata(ip: string): string | undefined {
  const family = net.isIP(ip);
  if (family === 0) return undefined;
  const inner = family === 6 ? embeddedIPv4(ip) : undefined;
  const hit = LINK_LOCAL.find(([list]) => list.check(inner ?? ip, inner !== undefined || family === 4 ? 'ipv4' : 'ipv6'));
  if (!hit) return undefined;
  return inner === undefined ? `${ip} is ${hit[1]}` : `${ip} embeds ${inner}, which is ${hit[1]}`;
}

/** `example.com` allows that host; `*.example.com` allows its subdomains (and itself). */
export function hostAllowed(host: string, allowedHosts: readonly string[] = []): boolean {
  const name = host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  return allowedHosts.some((pattern) => {
    const rule = pattern.toLowerCase().replace(/^\[|\]$/g, '');
    if (rule.startsWith('*.')) return name === rule.slice(2) || name.endsWith(rule.slice(1));
    return name === rule;
  });
}

export type Resolver = (host: string) => Promise<Array<{ address: string; family: number }>>;

const systemResolver: Resolver = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

/**
 * Resolves a URL's host and checks every address it resolves to (one bad answer refuses the
 * whole host, so round-robin answers cannot smuggle a private address in). Returns the address
 * to pin for the connection.
 */
export async function resolveAndCheck(
  url: string | URL,
  opts: { allowedHosts?: readonly string[]; resolver?: Resolver } = {},
): Promise<ResolveVerdict> {
  let parsed: URL;
  try {
    parsed = typeof url === 'string' ? new URL(url) : url;
  } catch {
    return { ok: false, reason: `${JSON.stringify(String(url))} is not a valid URL; send an absolute http(s) URL` };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { ok: false, reason: `only http and https URLs can be fetched, not ${parsed.protocol}` };
  }
  if (parsed.username || parsed.password) return { ok: false, reason: 'URLs with credentials (user:pass@) are refused' };
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const allowed = hostAllowed(host, opts.allowedHosts);
  let answers: Array<{ address: string; family: number }>;
  if (net.isIP(host)) answers = [{ address: host, family: net.isIP(host) }];
  else {
    try {
      answers = await (opts.resolver ?? systemResolver)(host);
    } catch (error) {
      return { ok: false, reason: `cannot resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? String(error)}` };
    }
  }
  if (answers.length === 0) return { ok: false, reason: `${host} has no addresses` };
  if (!allowed) {
    for (const answer of answers) {
      const why = whyRefused(answer.address);
      if (!why) continue;
      // Permission rules (`WebFetch(domain:…)`) allow the call, never the address; only the
      // caller's allowedHosts (the library's session option, an MCP server's config) can.
      const subject = host === answer.address ? `${host} ${why}` : `${host} resolves to ${answer.address}, which ${why}`;
      return { ok: false, reason: `${subject}; private and internal addresses are refused whatever the permission rules say` };
    }
  }
  const first = answers[0];
  return { ok: true, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** A `lookup` for http(s).request that always answers with the checked address. */
export function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}
