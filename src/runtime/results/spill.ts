// Full results that exceed a budget are kept in the session folder, so nothing is lost.
import { open } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { SessionState } from '../tool/types.js';
import { ensureSessionDir } from '../tool/session.js';

/** Written in slices so a 50 MB result never needs a second 50 MB buffer at once. */
const SLICE_CHARS = 1 << 20;

export function spillPath(session: SessionState, label: string, extension = 'txt'): string {
  const safe = label.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 40) || 'result';
  return path.join(ensureSessionDir(session), `${safe}-${Date.now()}-${randomBytes(3).toString('hex')}.${extension}`);
}

export async function spillText(session: SessionState, text: string, label: string): Promise<string> {
  const file = spillPath(session, label);
  const handle = await open(file, 'w', 0o600);
  try {
    for (let start = 0; start < text.length; start += SLICE_CHARS) {
      await handle.write(text.slice(start, start + SLICE_CHARS));
    }
  } finally {
    await handle.close();
  }
  return file;
}
