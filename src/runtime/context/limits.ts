// Whether a provider failure means the prompt no longer fits the model's window. Pure.
// Anthropic: 400 invalid_request_error "prompt is too long: N tokens > M maximum"; OpenAI Chat:
// 400 context_length_exceeded "This model's maximum context length is …"; Responses: "Your input
// exceeds the context window of this model"; local servers word it their own way.
const CONTEXT_LIMIT =
  /prompt is too long|context_length_exceeded|maximum context length|exceeds the context window|context window exceeded|too many tokens/i;

export function isContextLimitError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const status = (error as { status?: unknown }).status;
  return (status === undefined || status === 400 || status === 413) && CONTEXT_LIMIT.test(error.message);
}
