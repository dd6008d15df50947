// SSE resumability for one gateway session: the last messages of each stream, so a client that
// lost its connection reconnects with Last-Event-ID and gets what it missed. Bounded: a session
// keeps at most `limit` events (oldest dropped), and the store goes with the session.
import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

export const DEFAULT_EVENTS_PER_SESSION = 256;

interface StoredEvent {
  id: string;
  streamId: string;
  message: JSONRPCMessage;
}

export class BoundedEventStore implements EventStore {
  private readonly events: StoredEvent[] = [];
  private next = 0;

  constructor(private readonly limit = DEFAULT_EVENTS_PER_SESSION) {}

  get size(): number {
    return this.events.length;
  }

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `${streamId}:${++this.next}`;
    this.events.push({ id, streamId, message });
    if (this.events.length > this.limit) this.events.shift();
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.events.find((event) => event.id === eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const index = this.events.findIndex((event) => event.id === lastEventId);
    if (index < 0) throw new Error(`event ${lastEventId} is unknown or too old to replay`);
    const { streamId } = this.events[index];
    for (const event of this.events.slice(index + 1)) if (event.streamId === streamId) await send(event.id, event.message);
    return streamId;
  }
}
