// The HTTP gateway's sessions and their limits: an idle session is closed after a timeout, and
// the table never holds more than `maxSessions` (the least recently used idle one makes room;
// when every session is busy, a new client is refused). An abandoned client costs ~40 KB until
// evicted, so without these bounds memory grows with every client that never says goodbye.

export const DEFAULT_MAX_SESSIONS = 500;
export const DEFAULT_IDLE_TIMEOUT_MS = 15 * 60_000;

export interface SessionLimits {
  maxSessions: number;
  idleTimeoutMs: number;
}

export interface SessionActivity {
  id: string;
  lastSeen: number;
  /** Requests (and SSE streams) in flight: a session with one open is not idle. */
  busy: number;
}

/** Sessions idle for longer than the timeout. Pure. */
export function idleSessions(sessions: readonly SessionActivity[], now: number, limits: SessionLimits): string[] {
  return sessions.filter((s) => s.busy === 0 && now - s.lastSeen >= limits.idleTimeoutMs).map((s) => s.id);
}

/**
 * Room for one more session: nothing to evict while below the limit; else the least recently
 * used idle session; undefined when every session is busy (the new client is refused). Pure.
 */
export function sessionToEvict(sessions: readonly SessionActivity[], limits: SessionLimits): { evict: string | undefined; full: boolean } {
  if (sessions.length < limits.maxSessions) return { evict: undefined, full: false };
  const idle = sessions.filter((s) => s.busy === 0).sort((a, b) => a.lastSeen - b.lastSeen);
  return idle.length > 0 ? { evict: idle[0].id, full: false } : { evict: undefined, full: true };
}

export interface TrackedSession extends SessionActivity {
  close(): Promise<void>;
}

export class SessionTable<S extends TrackedSession> {
  private readonly sessions = new Map<string, S>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    readonly limits: SessionLimits,
    private readonly now: () => number = Date.now,
  ) {
    // Checked a few times per timeout; unref'd so an idle table never keeps the process alive.
    this.sweeper = setInterval(() => this.sweep(), Math.max(1_000, Math.min(limits.idleTimeoutMs / 4, 60_000)));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
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

  /** Makes room for one more session; false when the table is full of busy sessions. */
  async makeRoom(): Promise<boolean> {
    const { evict, full } = sessionToEvict([...this.sessions.values()], this.limits);
    if (evict) await this.evict(evict);
    return !full;
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

  private async evict(id: string): Promise<void> {
    const session = this.sessions.get(id);
    this.sessions.delete(id);
    await session?.close();
  }
}
