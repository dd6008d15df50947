// Which session logs this installation wrote. Every record wield appends carries an HMAC-SHA256
// over the previous record's MAC and its own JSON, under a key kept in the user's wield folder
// (mode 0600, named `*.key` so the Bash analyser never auto-reads it). A log whose chain verifies
// was written here and not changed since: a replay may give its recorded approvals again. A file
// from elsewhere (a bug-report attachment, a fixture in a cloned repository) or one edited by hand
// cannot produce the chain without the key. A location check (the file lies in ~/.wield/sessions)
// would trust any file a person was talked into copying there; a MAC does not.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const SESSION_KEY_FILE = 'session-signing.key';

const KEY_BYTES = 32;

/** The key file of this installation: `~/.wield/session-signing.key`, under the folder wieldHome() names. */
export function sessionKeyFile(home: string): string {
  return path.join(home, '.wield', SESSION_KEY_FILE);
}

/**
 * This installation's key, created on first use unless `create` is false (checking a log needs
 * none: with no key, no log verifies). Undefined when it can be neither read nor made (a
 * read-only home): logs are then written unsigned and replay as from elsewhere.
 */
export function sessionKey(home: string, create = true): Buffer | undefined {
  const file = sessionKeyFile(home);
  const read = (): Buffer | undefined => {
    try {
      const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
      return key.length === KEY_BYTES ? key : undefined;
    } catch {
      return undefined;
    }
  };
  const found = read();
  if (found || !create) return found;
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    // `wx`: two processes starting at once keep the first key rather than each writing its own.
    writeFileSync(file, `${randomBytes(KEY_BYTES).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  } catch {
    // Made by another process meanwhile, or not writable: read what is there.
  }
  return read();
}

/** The MAC of one record: chained to the previous record's MAC ('' for the first). */
export function recordMac(key: Buffer, previous: string, recordJson: string): string {
  return createHmac('sha256', key).update(previous).update('\n').update(recordJson).digest('hex');
}

/**
 * Whether every record carries the MAC this key gives it, in order: the log was written by this
 * installation and no record was added, removed, reordered or changed. `macs[i]` belongs to `records[i]`.
 */
export function verifyChain(records: readonly object[], macs: readonly (string | undefined)[], key: Buffer | undefined): boolean {
  if (key === undefined || records.length === 0 || records.length !== macs.length) return false;
  let previous = '';
  for (const [index, record] of records.entries()) {
    const mac = macs[index];
    if (typeof mac !== 'string') return false;
    const expected = Buffer.from(recordMac(key, previous, JSON.stringify(record)), 'hex');
    const given = Buffer.from(mac, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
    previous = mac;
  }
  return true;
}
