// `@path` in a prompt attaches that file: it is read through the Read tool (the permission
// policy, hooks and result budgets apply, and Edit then counts it as read) and its content is
// sent after the prompt. `@server:uri` attaches an MCP server's resource the same way, through
// the ReadMcpResource tool (so `ReadMcpResource(server…)` rules apply). Finding mentions and completing paths are pure or read folders only.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { RuntimeContext } from '../runtime/pipeline/types.js';
import { runToolCall } from '../runtime/pipeline/run.js';
import { textBlocks } from '../runtime/agent/history.js';
import { parseResourceReference } from '../runtime/mcp/reference.js';

/**
 * The paths mentioned: `@file` at the start of a word (an e-mail address is not one), or
 * `@"a file"` quoted; trailing punctuation is not part of the path. In order, once each.
 */
export function findMentions(prompt: string): string[] {
  const found: string[] = [];
  for (const match of prompt.matchAll(/(?:^|\s)@(?:"([^"]+)"|([^\s"]+))/g)) {
    const raw = match[1] ?? match[2].replace(/[,.;:!?)\]]+$/, '');
    if (raw !== '' && !found.includes(raw)) found.push(raw);
  }
  return found;
}

export interface Attachment {
  path: string;
  text: string;
  /** An MCP resource (`server:uri`), not a file. */
  resource?: boolean;
}

/** The prompt with each attached file after it, as the Read tool returned it. */
export function withAttachments(prompt: string, attachments: readonly Attachment[]): string {
  if (attachments.length === 0) return prompt;
  const files = attachments.map((entry) =>
    entry.resource
      ? `<resource ref="${entry.path}">\n${entry.text.trimEnd()}\n</resource>`
      : `<file path="${entry.path}">\n${entry.text.trimEnd()}\n</file>`,
  );
  const how = attachments.some((entry) => entry.resource)
    ? 'files read with the Read tool, server:uri resources with ReadMcpResource'
    : 'read with the Read tool';
  return `${prompt}\n\nAttached with @ (${how}):\n${files.join('\n')}`;
}

export type AttachOutcome =
  | {
      ok: true;
      prompt: string;
      attached: Attachment[] /** Mentions that name no file: left as text (`@types/node`). */;
      notFiles: string[];
    }
  | { ok: false; errors: string[] };

/**
 * Reads every mentioned file that exists through the pipeline; a failure (a denied or unreadable
 * file) is reported and nothing is sent. A mention naming no file stays text.
 */
export async function attachMentions(prompt: string, rt: RuntimeContext, signal: AbortSignal): Promise<AttachOutcome> {
  const mentions = findMentions(prompt);
  if (mentions.length === 0) return { ok: true, prompt, attached: [], notFiles: [] };
  const attached: Attachment[] = [];
  const errors: string[] = [];
  const notFiles: string[] = [];
  let n = 0;
  for (const mention of mentions) {
    const file = path.resolve(rt.session.cwd, mention);
    const resource = existsSync(file) ? undefined : resourceMention(mention, rt);
    if (!existsSync(file) && !resource) {
      notFiles.push(mention);
      continue;
    }
    const call = resource ? { name: 'ReadMcpResource', input: resource } : { name: 'Read', input: { file_path: file } };
    const result = await runToolCall({ id: `mention_${++n}`, name: call.name, input: JSON.stringify(call.input) }, rt, signal);
    const text = textBlocks(result.content);
    if (result.isError) errors.push(`@${mention}: ${text.split('\n').find((line) => line.trim() !== '') ?? 'could not be read'}`);
    else attached.push({ path: mention, text, ...(resource ? { resource: true } : {}) });
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, prompt: withAttachments(prompt, attached), attached, notFiles };
}

/** `server:scheme:…` naming a configured MCP server, where resources can be read; else undefined (plain text). */
function resourceMention(mention: string, rt: RuntimeContext): { server: string; uri: string } | undefined {
  const parts = parseResourceReference(mention);
  if (!parts || !/^[a-z][a-z0-9+.-]*:/i.test(parts.uri) || !rt.resolveTool('ReadMcpResource')) return undefined;
  return parts;
}

/**
 * Completion of the `@path` being typed at the end of the line (`@src/a` or `@"my fo`): the
 * matches and the text they replace. A path with a space is inserted quoted (`@"my file.txt"`),
 * as findMentions reads it; a folder's quote is left open so its names can be completed next.
 */
export function completeMention(line: string, cwd: string): [string[], string] {
  const match = /(?:^|\s)@(?:"([^"]*)|([^\s"]*))$/.exec(line);
  if (!match) return [[], line];
  const quoted = match[1] !== undefined;
  const typed = match[1] ?? match[2];
  const dir = typed.endsWith('/') ? typed : path.dirname(typed) === '.' && !typed.startsWith('./') ? '' : `${path.dirname(typed)}/`;
  const base = typed.slice(dir.length);
  let entries: { name: string; folder: boolean }[] = [];
  try {
    entries = readdirSync(path.resolve(cwd, dir || '.'), { withFileTypes: true }).map((entry) => ({
      name: entry.name,
      folder: entry.isDirectory(),
    }));
  } catch {
    return [[], typed];
  }
  const hits = entries
    .filter((entry) => entry.name.startsWith(base) && (base.startsWith('.') || !entry.name.startsWith('.')))
    .map((entry) => {
      const name = `${dir}${entry.name}${entry.folder ? '/' : ''}`;
      if (!quoted && !/\s/.test(name)) return `@${name}`;
      return `@"${name}${entry.folder ? '' : '"'}`;
    })
    .sort();
  return [hits, `@${quoted ? '"' : ''}${typed}`];
}
