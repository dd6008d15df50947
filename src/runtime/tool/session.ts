// Session state shared by the tools of one conversation.
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SessionState } from './types.js';

export interface SessionOptions {
  cwd: string;
  /** Workspace roots; defaults to [cwd]. */
  roots?: string[];
  id?: string;
  /** Session folder for spill files; defaults to a folder under the system temp dir. */
  dir?: string;
  allowedHosts?: string[];
  /** Files Grep, Glob and LS must not open or list (see SessionState.readDenied). */
  readDenied?: (absPath: string) => boolean;
  /** See SessionState.contained. */
  contained?: boolean;
}

export function createSession(options: SessionOptions): SessionState {
  const id = options.id ?? randomUUID();
  const cwd = path.resolve(options.cwd);
  return {
    id,
    dir: options.dir ?? path.join(os.tmpdir(), 'wield-sessions', id),
    cwd,
    roots: (options.roots ?? [cwd]).map((root) => path.resolve(root)),
    fileState: new Map(),
    allowedHosts: options.allowedHosts,
    readDenied: options.readDenied,
    ...(options.contained ? { contained: true } : {}),
  };
}

/** Creates the session folder when something first needs to be written there. */
export function ensureSessionDir(session: SessionState): string {
  mkdirSync(session.dir, { recursive: true });
  return session.dir;
}
