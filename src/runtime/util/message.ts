// A readable message for anything thrown: the one helper every tier uses instead of its own
// `error instanceof Error ? …` (which loses strings and plain objects thrown by libraries).
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
