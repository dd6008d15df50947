// Where a prompt comes from: `-p TEXT`, the words after `wield` (`wield "fix the bug"`, `wield -p
// --model x "explain"`), and text piped on stdin (`cat log | wield -p "explain"`), as Claude Code
// takes them. The decisions are pure; reading stdin is the one effect, at the end.
import { fstatSync } from 'node:fs';

/** Piped input larger than this is refused rather than cut: 1 MiB is ~250k tokens, past most context windows. */
export const MAX_PIPED_BYTES = 1024 * 1024;

/** After this long with nothing on a pipe, say that wield is waiting for it (a caller that never closes stdin). */
const STDIN_WAIT_NOTICE_MS = 3000;

/** `-p` as commander parses `-p, --prompt [prompt]`: the text, `true` for a bare `-p`, or absent. */
export type PromptFlag = string | true | undefined;

/** The prompt of the command line: `-p`'s text followed by the words after `wield`, or undefined for none. */
export function promptFromArgs(flag: PromptFlag, words: readonly string[]): string | undefined {
  const parts = [typeof flag === 'string' ? flag : undefined, ...words].filter((part): part is string => part !== undefined);
  return parts.length > 0 ? parts.join(' ') : undefined;
}

/** The prompt with piped text after it; the piped text alone when no prompt was given. */
export function withPipedInput(prompt: string | undefined, piped: string | undefined): string | undefined {
  if (piped === undefined || piped.trim() === '') return prompt;
  if (prompt === undefined || prompt.trim() === '') return piped;
  return `${prompt}\n\n${piped}`;
}

/**
 * A single word that reads like a mistyped command (`wield serch`) rather than a prompt: the
 * closest command names, else none. Prompts of one word are rare; a quoted sentence never matches.
 */
export function looksLikeCommand(words: readonly string[], close: (word: string) => string[]): string[] {
  const first = words[0];
  if (first === undefined || /\s/.test(first) || first.length < 3) return [];
  return close(first);
}

export type PipedInput = { ok: true; text?: string } | { ok: false; message: string };

/**
 * Text piped or redirected into wield (a pipe, socket or file on fd 0), read to its end; nothing
 * for a terminal or /dev/null. Over MAX_PIPED_BYTES it is refused, with what to do instead.
 */
export async function readPipedInput(stdin: NodeJS.ReadStream = process.stdin): Promise<PipedInput> {
  if (stdin.isTTY) return { ok: true };
  let kind: ReturnType<typeof fstatSync>;
  try {
    kind = fstatSync(0);
  } catch {
    return { ok: true };
  }
  if (!kind.isFIFO() && !kind.isFile() && !kind.isSocket()) return { ok: true };
  const notice = setTimeout(
    () => process.stderr.write('wield: waiting for input on stdin (close it, or run with </dev/null to send none)\n'),
    STDIN_WAIT_NOTICE_MS,
  );
  notice.unref();
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stdin) {
      clearTimeout(notice);
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += buffer.length;
      if (size > MAX_PIPED_BYTES) {
        stdin.destroy();
        return {
          ok: false,
          message: `wield: the piped input is over ${MAX_PIPED_BYTES / 1024 / 1024} MiB; send less (e.g. \`tail -n 2000 log | wield -p "explain"\`) or name the file in the prompt for the model to read.`,
        };
      }
      chunks.push(buffer);
    }
  } finally {
    clearTimeout(notice);
  }
  return { ok: true, text: size > 0 ? Buffer.concat(chunks).toString('utf8') : undefined };
}
