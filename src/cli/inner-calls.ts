// A program's calls (RunCode) among a turn's events: the runtime gives them the ids
// `<program's id>.1`, `.2`…, so a view can show each under the call that made it. Pure.

/** The running call `toolUseId` was made by, or undefined for a call the model made itself. */
export function parentCallId(toolUseId: string, running: (id: string) => boolean): string | undefined {
  const dot = toolUseId.lastIndexOf('.');
  if (dot <= 0 || !/^\d+$/.test(toolUseId.slice(dot + 1))) return undefined;
  const parent = toolUseId.slice(0, dot);
  // A model's own id may hold a dot: only a call still running can have made this one.
  return running(parent) ? parent : undefined;
}
