// How long the HTTP gateway's sessions live and which one makes room: pure decisions, and the
// table's bookkeeping under concurrent initialize requests (a fake clock, no sockets).
import { describe, expect, it } from 'vitest';
import { idleSessions, roomForSession, SessionTable, type TrackedSession } from '../../../src/runtime/mcp/http-sessions.js';

const limits = { maxSessions: 3, idleTimeoutMs: 1_000, evictionGraceMs: 100 };

describe('session limits', () => {
  it('evicts sessions idle past the timeout, never one with a request in flight', () => {
    const sessions = [
      { id: 'old', lastSeen: 0, busy: 0 },
      { id: 'streaming', lastSeen: 0, busy: 1 },
      { id: 'recent', lastSeen: 1_500, busy: 0 },
    ];
    expect(idleSessions(sessions, 2_000, limits)).toEqual(['old']);
  });

  it('makes room by closing the least recently used session idle past the grace; refuses when all are busy', () => {
    expect(roomForSession([{ id: 'a', lastSeen: 0, busy: 0 }], 0, 500, limits)).toEqual({ kind: 'room' });
    const full = [
      { id: 'a', lastSeen: 5, busy: 0 },
      { id: 'b', lastSeen: 1, busy: 0 },
      { id: 'c', lastSeen: 0, busy: 2 },
    ];
    expect(roomForSession(full, 0, 500, limits)).toEqual({ kind: 'evict', id: 'b' });
    expect(
      roomForSession(
        full.map((s) => ({ ...s, busy: 1 })),
        0,
        500,
        limits,
      ),
    ).toEqual({ kind: 'full', retryAfterMs: 100 });
  });

  it('never evicts a session active within the grace (a live client between two requests)', () => {
    const full = [
      { id: 'a', lastSeen: 450, busy: 0 },
      { id: 'b', lastSeen: 430, busy: 0 },
      { id: 'c', lastSeen: 480, busy: 0 },
    ];
    // b was last seen 70 ms ago: it passes the 100 ms grace in 30 ms.
    expect(roomForSession(full, 0, 500, limits)).toEqual({ kind: 'full', retryAfterMs: 30 });
    expect(roomForSession(full, 0, 530, limits)).toEqual({ kind: 'evict', id: 'b' });
  });

  it('counts sessions still initializing against the limit', () => {
    expect(roomForSession([{ id: 'a', lastSeen: 0, busy: 0 }], 1, 500, limits)).toEqual({ kind: 'room' });
    expect(roomForSession([{ id: 'a', lastSeen: 0, busy: 0 }], 2, 500, limits)).toEqual({ kind: 'evict', id: 'a' });
    expect(roomForSession([], 3, 500, limits)).toEqual({ kind: 'full', retryAfterMs: 100 });
  });

  it('the grace is capped by the idle timeout', () => {
    const long = { maxSessions: 1, idleTimeoutMs: 50, evictionGraceMs: 60_000 };
    expect(roomForSession([{ id: 'a', lastSeen: 0, busy: 0 }], 0, 50, long)).toEqual({ kind: 'evict', id: 'a' });
  });
});

describe('the session table', () => {
  function session(id: string, now: number): TrackedSession & { closed: boolean } {
    const s = {
      id,
      lastSeen: now,
      busy: 0,
      closed: false,
      close: async () => {
        s.closed = true;
      },
    };
    return s;
  }

  it('concurrent initialize requests cannot overfill the table: each holds its place at once', () => {
    const now = 0;
    const table = new SessionTable<TrackedSession>(limits, () => now);
    const places = [table.reserve(), table.reserve(), table.reserve(), table.reserve()];
    expect(places.map((p) => p.ok)).toEqual([true, true, true, false]);
    expect(table.size).toBe(3);
    for (const [i, place] of places.slice(0, 3).entries()) {
      table.add(session(`s${i}`, now));
      if (place.ok) place.release();
    }
    expect(table.size).toBe(3);
    void table.closeAll();
  });

  it('a fresh session between its requests is kept; an old idle one makes room', () => {
    let now = 0;
    const table = new SessionTable<TrackedSession & { closed: boolean }>(limits, () => now);
    const kept = ['a', 'b', 'c'].map((id) => session(id, now));
    for (const s of kept) table.add(s);
    now = 50;
    const refused = table.reserve();
    expect(refused).toEqual({ ok: false, retryAfterMs: 50 });
    const end = table.begin(kept[0]);
    end();
    now = 120;
    const place = table.reserve();
    expect(place.ok).toBe(true);
    // a was active at 50; b is the least recently used past the grace.
    expect(kept.map((s) => s.closed)).toEqual([false, true, false]);
    expect(table.get('b')).toBeUndefined();
    void table.closeAll();
  });
});
