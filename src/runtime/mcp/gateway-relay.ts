// A proxied server's questions, carried to the gateway's client. A 2026-07-28 server asks by
// answering `input_required` (an elicitation, a sampling request, a roots listing); the gateway
// passes the questions on unchanged with a requestState of its own, signed, that holds the
// server's state, the call's digest and whether wield's rules already allowed the call. The
// client's retry reaches the server with its answers and its state; a 2025-era client of the
// gateway is asked by the SDK with real requests, the same way. Stateless: any replica that
// shares the signing key can take the retry.
import { randomUUID } from 'node:crypto';
import {
  inputRequired,
  LOG_LEVEL_META_KEY,
  MissingRequiredClientCapabilityError,
  type MissingRequiredClientCapabilityErrorData,
  ProtocolError,
  ProtocolErrorCode,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { UpstreamRound } from '../tool/types.js';

/** A permission question of the gateway's own (gateway-modern.ts). */
export interface PermissionState {
  /** Nonce: claimed in the shared store on first use, so a replayed state is refused. */
  n: string;
  /** Digest of the call's name and arguments: the answer allows that call only. */
  d: string;
  /** The inputRequests key the answer comes under. */
  k: string;
}

/** A proxied server's questions, passed on. */
export interface RelayState {
  /** Nonce: a state that carries an allowed call is claimed once (see `a`). */
  n: string;
  /** Digest of the call's name and arguments: the retry must be the same call. */
  d: string;
  /** The server's own requestState, if it sent one. */
  u?: string;
  /** True when wield's rules already allowed this call after asking: the retry is not asked again. */
  a: boolean;
}

export type GatewayState = PermissionState | RelayState;

export function isRelayState(state: GatewayState): state is RelayState {
  return !('k' in state);
}

/** A server's questions instead of a result (2026-07-28 input_required). */
export interface RelayedInput {
  resultType: 'input_required';
  inputRequests?: Record<string, unknown>;
  requestState?: string;
}

/** True when a proxied server answered with questions instead of a result. */
export function asksInput<T extends object>(raw: T | undefined): raw is T & RelayedInput {
  return (raw as { resultType?: unknown } | undefined)?.resultType === 'input_required';
}

/** The server's questions, under the gateway's own signed state. */
export async function relayedQuestions(
  raw: RelayedInput,
  codec: RequestStateCodec<GatewayState>,
  digest: string,
  allowedAfterAsking: boolean,
): Promise<Record<string, unknown>> {
  const state: RelayState = { n: randomUUID(), d: digest, a: allowedAfterAsking, ...(raw.requestState ? { u: raw.requestState } : {}) };
  return inputRequired({
    ...(raw.inputRequests ? { inputRequests: raw.inputRequests as Parameters<typeof inputRequired>[0]['inputRequests'] } : {}),
    requestState: await codec.mint(state),
  }) as unknown as Record<string, unknown>;
}

/**
 * The relayed questions a retry answers, checked against the call; undefined for a first call
 * or a permission answer. `claimOnce`: a state that carries an allowed call counts once.
 */
export async function relayStateOf(
  ctx: ServerContext,
  digest: string,
  claimOnce?: (key: string) => Promise<boolean>,
): Promise<RelayState | undefined> {
  const state = ctx.mcpReq.requestState<GatewayState>();
  if (state === undefined || typeof state !== 'object' || !isRelayState(state)) return undefined;
  if (state.d !== digest)
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      'requestState belongs to another call: retry with the same tool name and arguments, or call again without requestState',
    );
  if (state.a && claimOnce && !(await claimOnce(`state:${state.n}`)))
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      'requestState was already used: answer the questions of the latest result, or call the tool again without requestState',
    );
  return state;
}

/** What the retry of a relayed call sends the server: the client's answers and the server's state. */
export function upstreamRound(
  responses: Record<string, unknown> | undefined,
  state: RelayState | undefined,
  capabilities: object | undefined,
  logLevel: string | undefined,
): UpstreamRound {
  return {
    ...(logLevel ? { logLevel } : {}),
    ...(responses ? { inputResponses: responses } : {}),
    ...(state?.u ? { requestState: state.u } : {}),
    ...(capabilities ? { clientCapabilities: { ...capabilities } } : {}),
  };
}

/** The log level a 2026-07-28 request asks for (absent: no logs for it). */
export function logLevelOf(ctx: ServerContext): string | undefined {
  const envelope: Record<string, unknown> | undefined = ctx.mcpReq.envelope;
  const level = envelope?.[LOG_LEVEL_META_KEY];
  return typeof level === 'string' ? level : undefined;
}

/** A proxied server's -32021, said to the gateway's client as the server said it. */
export function missingCapability(error: Error & { data?: unknown }): MissingRequiredClientCapabilityError {
  const data = (error.data ?? { requiredCapabilities: {} }) as MissingRequiredClientCapabilityErrorData;
  return new MissingRequiredClientCapabilityError(data, error.message.replace(/^MCP error -?\d+: /, ''));
}

/** The round after a server's questions: its new state (or none), the same client; answers to come. */
export function nextRound(round: UpstreamRound, questions: RelayedInput): UpstreamRound {
  const { inputResponses: _answered, requestState: _state, ...client } = round;
  return { ...client, ...(questions.requestState ? { requestState: questions.requestState } : {}) };
}
