// The SDK hands a notification to its handler a microtask after it arrives, but settles a
// response at once, and a request's progress handler goes with its response: progress a server
// sent just before its answer (in the same read, common over stdio under load) was dropped. The
// wrapper delivers each response one microtask later, after the notifications that came first.
import { isJSONRPCErrorResponse, isJSONRPCResultResponse, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';

type Deliver = NonNullable<Transport['onmessage']>;

export function inArrivalOrder<T extends Transport>(transport: T): T {
  return new Proxy(transport, {
    set(target, key, value, receiver) {
      if (key !== 'onmessage' || typeof value !== 'function') return Reflect.set(target, key, value, receiver);
      const deliver = value as Deliver;
      const ordered: Deliver = (message: JSONRPCMessage, extra) => {
        if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) queueMicrotask(() => deliver(message, extra));
        else deliver(message, extra);
      };
      return Reflect.set(target, key, ordered, receiver);
    },
  });
}
