// Joining streamed Chat Completions tool_calls deltas into whole calls, tolerating the dialects
// of OpenAI-compatible servers: whole calls in one chunk, missing ids or indexes, an index reused
// for several calls, arguments sent as an object instead of a JSON string. Pure.
import { randomUUID } from 'node:crypto';
import type { ModelStreamEvent } from './types.js';

/** One tool_calls entry as servers actually send it (looser than the SDK's type). */
export interface RawToolCallDelta {
  index?: unknown;
  id?: unknown;
  function?: { name?: unknown; arguments?: unknown } | null;
}

interface Call {
  index: number;
  wireIndex?: number;
  id?: string;
  name?: string;
  args: string;
  started: boolean;
  ended: boolean;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function isCompleteJSON(value: string): boolean {
  try {
    JSON.parse(value);
    return true;
  } catch {
    return false;
  }
}

export class ChatCallJoiner {
  private readonly calls: Call[] = [];

  get count(): number {
    return this.calls.length;
  }

  /** Feeds one delta; yields the events it completes. */
  *push(delta: RawToolCallDelta): Generator<ModelStreamEvent> {
    const id = text(delta.id);
    const name = text(delta.function?.name);
    const rawArgs = delta.function?.arguments;
    const wholeArgs = rawArgs !== null && typeof rawArgs === 'object' ? JSON.stringify(rawArgs) : undefined;
    const piece = wholeArgs ?? (typeof rawArgs === 'string' ? rawArgs : '');

    let call = this.target(delta, id, name, piece, wholeArgs !== undefined);
    if (call === undefined) {
      yield* this.endOpen();
      call = { index: this.calls.length, args: '', started: false, ended: false };
      if (typeof delta.index === 'number') call.wireIndex = delta.index;
      this.calls.push(call);
    }
    call.id ??= id;
    call.name ??= name;
    call.args = wholeArgs ?? call.args + piece;
    if (!call.started) {
      if (call.name === undefined) return; // arguments before the name: held until it comes
      call.started = true;
      // Missing ids are made up so results can still be matched to calls.
      call.id ??= `call_${randomUUID().slice(0, 8)}_${call.index}`;
      yield { type: 'tool_call_start', index: call.index, id: call.id, name: call.name };
      if (call.args !== '') yield { type: 'tool_call_delta', index: call.index, json: call.args };
    } else if (piece !== '') {
      yield { type: 'tool_call_delta', index: call.index, json: piece };
    }
  }

  /** Ends every call still open (the choice finished or the stream ended). */
  *endOpen(): Generator<ModelStreamEvent> {
    for (const call of this.calls) {
      if (call.ended) continue;
      call.ended = true;
      if (!call.started) {
        // A call that never got a name cannot be run; the model is told via the pipeline.
        call.started = true;
        call.name = '';
        call.id ??= `call_${randomUUID().slice(0, 8)}_${call.index}`;
        yield { type: 'tool_call_start', index: call.index, id: call.id, name: call.name };
      }
      yield {
        type: 'tool_call_end',
        index: call.index,
        id: call.id ?? '',
        name: call.name ?? '',
        input: call.args === '' ? '{}' : call.args,
      };
    }
  }

  /** The call this delta continues, or undefined when it starts a new one. */
  private target(
    delta: RawToolCallDelta,
    id: string | undefined,
    name: string | undefined,
    piece: string,
    whole: boolean,
  ): Call | undefined {
    let call: Call | undefined;
    if (typeof delta.index === 'number') {
      call = this.calls.findLast((c) => c.wireIndex === delta.index);
    } else if (id !== undefined) {
      call = this.calls.find((c) => c.id === id) ?? (name === undefined ? this.lastOpen() : undefined);
    } else {
      call = name === undefined ? this.lastOpen() : undefined;
    }
    if (call === undefined || call.ended) return undefined;
    if (id !== undefined && call.id !== undefined && call.id !== id) return undefined;
    // Same index, no id, a name again and the previous arguments already whole: a new call.
    const startsNewObject = whole || piece.trimStart().startsWith('{');
    if (name !== undefined && call.name !== undefined && id === undefined && startsNewObject && isCompleteJSON(call.args)) {
      return undefined;
    }
    return call;
  }

  private lastOpen(): Call | undefined {
    const last = this.calls.at(-1);
    return last !== undefined && !last.ended ? last : undefined;
  }
}
