// A relayed round of a proxied call (gateway-relay.ts) as the params of the request to the
// server: the client's answers, the server's own state, and, in the request's _meta, what the
// asking client can answer and the log level it wants. Pure.
import { CLIENT_CAPABILITIES_META_KEY, LOG_LEVEL_META_KEY } from '@modelcontextprotocol/client';
import type { UpstreamRound } from '../tool/types.js';

/** The params of a relayed round: the answers, the server's state, and what the asking client can answer. */
function roundParams(round: UpstreamRound): Record<string, unknown> {
  // Given _meta keys take precedence over the envelope the SDK attaches.
  const meta = {
    ...(round.clientCapabilities ? { [CLIENT_CAPABILITIES_META_KEY]: round.clientCapabilities } : {}),
    ...(round.logLevel ? { [LOG_LEVEL_META_KEY]: round.logLevel } : {}),
  };
  return {
    ...(round.inputResponses ? { inputResponses: round.inputResponses } : {}),
    ...(round.requestState ? { requestState: round.requestState } : {}),
    ...(Object.keys(meta).length > 0 ? { _meta: meta } : {}),
  };
}

/**
 * A request's params and options for a round the gateway relays (none without one): a 2026-07-28
 * server's questions come back as the result, for the gateway's client to answer.
 */
export function relayedRequest(round: UpstreamRound | undefined): {
  params: Record<string, unknown>;
  options: { allowInputRequired?: true };
} {
  return round ? { params: roundParams(round), options: { allowInputRequired: true } } : { params: {}, options: {} };
}
