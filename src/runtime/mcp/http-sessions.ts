// The HTTP gateway's sessions and their limits: an idle session is closed after a timeout, and
// the table never holds more than `maxSessions`, counting sessions still being initialized (the
// least recently used session idle for at least the eviction grace makes room; otherwise a new
// client is refused with 503 and told when to retry). An abandoned client costs ~40 KB until
// evicted, so without these bounds memory grows with every client that never says goodbye.
//
// Why the grace: a live client is idle between its requests (after initialize, between two tool
// calls). Evicting the least recently used idle session without one closed sessions a few
// milliseconds old: 50 SDK clients against 20 sessions got 30 "Session not found" (404) in the
// middle of their calls. A new client refused with 503 can retry; a client whose session vanished
// mid-conversation loses its state.

export const DEFAULT_MAX_SESSIONS = 500;
export const DEFAULT_IDLE_TIMEOUT_MS = 15 * 60_000;
/** A session idle for less than this is never evicted to make room (it is capped by the timeout). */
export const DEFAULT_EVICTION_GRACE_MS = 60_000;

export interface SessionLimits {
  maxSessions: number;
  idleTimeoutMs: number;
  /** Only sessions idle for at least this long may be evicted to make room (default 60 s). */
  evictionGraceMs?: number;
}

export interface SessionActivity {
  id: string;
  lastSeen: number;
  /** Requests (and SSE streams) in flight: a session with one open is not idle. */
  busy: number;
}

export type RoomVerdict =
  | { kind: 'room' }
  | { kind: 'evict'; id: string }
  /** Every session is busy or was active within the grace: retry after this many ms. */
  | { kind: 'full'; retryAfterMs: number };

function graceOf(limits: SessionLimits): number {
  return Math.min(limits.evictionGraceMs ?? DEFAULT_EVICTION_GRACE_MS, limits.idleTimeoutMs);
}

/** Sessions idle for longer than the timeout. Pure. */
export function idleSessions(sessions: readonly SessionActivity[], now: number, limits: SessionLimits): string[] {
  return sessions.filter((s) => s.busy === 0 && now - s.lastSeen >= limits.idleTimeoutMs).map((s) => s.id);
}

/**
 * Room for one more session, given the sessions kept and those still initializing (`pending`):
 * nothing to evict while below the limit; else the least recently used session idle for at least
 * the grace; else full, with the time until the oldest idle session passes the grace (or the
 * grace itself when every session is busy). Pure.
 */
export function roomForSession(sessions: readonly SessionActivity[], pending: number, now: number, limits: SessionLimits): RoomVerdict {
  if (sessions.length + pending < limits.maxSessions) return { kind: 'room' };
  const grace = graceOf(limits);
  const idle = sessions.filter((s) => s.busy === 0).sort((a, b) => a.lastSeen - b.lastSeen);
  if (idle.length > 0 && now - idle[0].lastSeen >= grace) return { kind: 'evict', id: idle[0].id };
  const retryAfterMs = idle.length > 0 ? Math.max(1, grace - (now - idle[0].lastSeen)) : Math.max(1, grace);
  return { kind: 'full', retryAfterMs };
}

export interface TrackedSession extends SessionActivity {
  close(): Promise<void>;
}

export class SessionTable<S extends TrackedSession> {
  private readonly sessions = new Map<string, S>();
  private pending = 0;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    readonly limits: SessionLimits,
    private readonly now: () => number = Date.now,
  ) {
    // Checked a few times per timeout; unref'd so an idle table never keeps the process alive.
    this.sweeper = setInterval(() => this.sweep(), Math.max(1_000, Math.min(limits.idleTimeoutMs / 4, 60_000)));
    this.sweeper.unref();
  }

  /** Sessions kept plus those being initialized: never above maxSessions. */
  get size(): number {
    return this.sessions.size + this.pending;
  }

  get(id: string): S | undefined {
    return this.sessions.get(id);
  }

  add(session: S): void {
    this.sessions.set(session.id, session);
  }

  delete(id: string): void {
    this.sessions.delete(id);
  }

  /**
   * Holds a place for a session being initialized, synchronously, so that concurrent initialize
   * requests cannot all see the same free place. `release` ends the hold once the session was
   * added (or never started).
   */
  reserve(): { ok: true; release: () => void } | { ok: false; retryAfterMs: number } {
    const verdict = roomForSession([...this.sessions.values()], this.pending, this.now(), this.limits);
    if (verdict.kind === 'full') return { ok: false, retryAfterMs: verdict.retryAfterMs };
    if (verdict.kind === 'evict') void this.evict(verdict.id);
    this.pending++;
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        this.pending--;
      },
    };
  }

  /** Marks a request in flight; the returned function ends it. */
  begin(session: S): () => void {
    session.busy++;
    session.lastSeen = this.now();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      session.busy--;
      session.lastSeen = this.now();
    };
  }

  async sweep(): Promise<void> {
    await Promise.allSettled(idleSessions([...this.sessions.values()], this.now(), this.limits).map((id) => this.evict(id)));
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.allSettled([...this.sessions.keys()].map((id) => this.evict(id)));
  }

  /** Removed from the table at once (synchronously), closed afterwards. */
  private async evict(id: string): Promise<void> {
    const session = this.sessions.get(id);
    this.sessions.delete(id);
    await session?.close();
  }
}
