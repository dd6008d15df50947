// Helpers shared by the dialect writers.

/** Splits text into up to `parts` pieces so clients must join deltas. */
export function pieces(text: string, parts = 3): string[] {
  if (text === '') return [];
  const size = Math.ceil(text.length / parts);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

export function sse(data: unknown, event?: string): string {
  const head = event === undefined ? '' : `event: ${event}\n`;
  return `${head}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

/** Parsed arguments when they are valid JSON, else the raw text. */
export function parsedOrRaw(args: string): unknown {
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
}
