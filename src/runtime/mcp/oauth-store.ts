// OAuth state per MCP server, one JSON file each under the user's wield folder
// (`<home>/.wield/mcp-auth/`), written with mode 0600: tokens are credentials.
import { createHash, type webcrypto } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import { wieldHome } from '../agent/session-store.js';
import { sanitizeNamePart } from './names.js';

export interface OAuthRecord {
  /** The server URL these credentials belong to: a changed URL starts afresh. */
  url: string;
  client?: StoredOAuthClientInformation;
  tokens?: StoredOAuthTokens;
  codeVerifier?: string;
  /** What discovery found at redirect time, so the callback is checked against the same server. */
  discovery?: OAuthDiscoveryState;
  /** The local port the redirect URI was registered with. */
  callbackPort?: number;
  /** The key DPoP-bound tokens are bound to (oauth-dpop.ts). */
  dpopKey?: StoredDpopKey;
}

/** A DPoP key as stored: JWKs, so a later run signs with the same key. */
export interface StoredDpopKey {
  privateJwk: webcrypto.JsonWebKey;
  publicJwk: webcrypto.JsonWebKey;
  thumbprint: string;
}

/** Where tokens live: the user's wield folder (WIELD_HOME, else the home folder), `.wield/mcp-auth`. */
export function mcpAuthDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(wieldHome(env), '.wield', 'mcp-auth');
}

/** One file per server name and URL (hashed: two projects may name different servers alike). */
export function oauthFile(dir: string, server: string, url: string): string {
  const hash = createHash('sha256').update(url).digest('hex').slice(0, 12);
  return path.join(dir, `${sanitizeNamePart(server)}-${hash}.json`);
}

export class OAuthStore {
  constructor(
    readonly file: string,
    private readonly url: string,
  ) {}

  read(): OAuthRecord {
    try {
      const record = JSON.parse(readFileSync(this.file, 'utf8')) as OAuthRecord;
      return record.url === this.url ? record : { url: this.url };
    } catch {
      return { url: this.url };
    }
  }

  update(change: (record: OAuthRecord) => OAuthRecord): void {
    const next = change(this.read());
    mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    // Written aside and renamed: a crash never leaves half a token file; 0600 from the start.
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
    chmodSync(temp, 0o600);
    renameSync(temp, this.file);
  }
}
