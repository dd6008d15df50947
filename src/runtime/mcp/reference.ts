// `server:uri`, how a person or a prompt names an MCP resource. Its own module so the CLI can read
// a mention without loading the MCP client.

/** `server:uri` → its parts (the URI keeps its own colons). Pure. */
export function parseResourceReference(reference: string): { server: string; uri: string } | undefined {
  const at = reference.indexOf(':');
  if (at <= 0 || at === reference.length - 1) return undefined;
  return { server: reference.slice(0, at), uri: reference.slice(at + 1) };
}
