// What a failed tools/call means for the model and for the connection: a timeout, a crash (the
// server is restarted on the next call), a refusal, an unusable answer, or the transport failing
// (reconnected on the next call). Pure.
import { ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode, UrlElicitationRequiredError } from '@modelcontextprotocol/client';
import { messageOf } from '../util/message.js';

export interface CallFailure {
  message: string;
  /** Set when the connection is lost (the reason): the next call reconnects. */
  lost?: string;
}

export function classifyCallError(
  serverName: string,
  toolName: string,
  error: unknown,
  callTimeoutMs: number,
  stderrHint: string,
): CallFailure {
  const server = `MCP server "${serverName}"`;
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    return {
      message: `${server} did not answer "${toolName}" within ${callTimeoutMs / 1000} s; the call was cancelled. Try a smaller request, or raise "timeout" for this server in the settings.`,
    };
  }
  if (error instanceof SdkError && (error.code === SdkErrorCode.ConnectionClosed || error.code === SdkErrorCode.NotConnected)) {
    return {
      lost: 'it exited during a call',
      message: `${server} crashed or disconnected during "${toolName}"${stderrHint}. It will be restarted on the next call.`,
    };
  }
  if (error instanceof UrlElicitationRequiredError) {
    const pages = error.elicitations.map((entry) => entry.url).join(', ');
    return {
      message: `${server} needs the person to open ${pages} before "${toolName}" can run, and no one could be asked (or they declined). Tell the user to open it, then call the tool again.`,
    };
  }
  if (error instanceof ProtocolError) return { message: `${server} rejected "${toolName}": ${error.message}` };
  if (error instanceof SdkError) return { message: `${server} sent an unusable answer to "${toolName}": ${error.message}` };
  // Anything else is the transport failing (an HTTP server gone, a broken pipe): reconnect next time.
  return {
    lost: messageOf(error),
    message: `${server} failed during "${toolName}": ${messageOf(error)}. It will be reconnected on the next call.`,
  };
}

/** Lines of a crash report that say nothing about the cause: a stack frame, a caret, Node's version footer. */
const NOISE = [/^\s+at /, /^\s*\^+\s*$/, /^Node\.js v\d/, /^\s*$/, /^\s*\.\.\. \d+ lines? matching/];
const ERROR_LINE = /(^|\b)(\w*Error|\w*Exception|panic(ked)?|fatal|Traceback)\b|^error\b/i;

/**
 * The line of a server's last stderr lines that names why it failed. Pure. A crashed Node server
 * ends with a stack and "Node.js v20…"; the error line above them ("Error: Cannot find module …")
 * is the cause. Falls back to the last line that is not noise.
 */
export function telltaleStderrLine(tail: readonly string[]): string | undefined {
  const meaningful = tail.filter((line) => !NOISE.some((pattern) => pattern.test(line)));
  return meaningful.findLast((line) => ERROR_LINE.test(line)) ?? meaningful.at(-1);
}

/**
 * The server's -32021: the asking client did not declare a capability the call needs. A relayed
 * call rethrows it, for the gateway's client to hear as the JSON-RPC error it is.
 */
export function isMissingCapability(error: unknown): error is ProtocolError {
  return error instanceof ProtocolError && error.code === ProtocolErrorCode.MissingRequiredClientCapability;
}
