// A `wield -p` session that compacts, then `--resume ID` continuing from the compacted state:
// the real CLI against the Anthropic stand-in (which answers the summarising request, the one
// without tools, with a fixed summary).
// And /clear, which the log records too, so a resume or a rewind does not bring the forgotten turns back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openAgentSession } from '../../src/cli/agent-session.js';
import { recordedPrompts } from '../../src/runtime/agent/rewind.js';
import { loadSessionForResume, messagesOf, readSession } from '../../src/runtime/agent/session-store.js';
import { COMPACTED_HEADER } from '../../src/runtime/context/compaction.js';
import { startStandin } from '../support/standin/index.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, runCli, tempDir } from './helpers.js';

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

type Body = { tools?: unknown[]; messages: { role: string; content: { type: string; text?: string; content?: { text?: string }[] }[] }[] };

const SUMMARY = 'Summary: doc0 and doc1 hold numbered lines of filler; nothing was changed.';

describe('compaction and --resume', () => {
  it('resumes a compacted -p session from its compacted history, not from the turns it summarised', async () => {
    const cwd = tempDir('wield-compact-cwd-');
    const home = tempDir('wield-compact-home-');
    // ~6k tokens a file: the third read takes the context past 85% of a 20,000-token window.
    const docs = [0, 1, 2, 3].map((i) => path.join(cwd, `doc${i}.txt`));
    for (const [i, file] of docs.entries()) {
      writeFileSync(file, `${Array.from({ length: 300 }, (_, n) => `doc${i} line ${n} ${'.'.repeat(60)}`).join('\n')}\n`);
    }
    mkdirSync(path.join(home, '.wield'), { recursive: true });
    // Clearing and the turn budget off, so compaction is what keeps the session in its window.
    writeFileSync(path.join(home, '.wield', 'settings.json'), JSON.stringify({ context: { clearing: false, turnBudget: false } }));
    const standin = await startStandin({
      dialect: 'anthropic',
      countTokens: true,
      replyWithoutTools: { text: SUMMARY },
      script: [
        ...docs.map((file) => ({ toolCalls: [{ name: 'Read', arguments: { file_path: file } }] })),
        { text: 'All four read.' },
        { text: 'Continuing from the summary.' },
      ],
    });
    try {
      const env = cleanEnv(home, providerEnv('anthropic', standin.url));
      const args = [...providerArgs('anthropic'), '--output-format', 'json', '--context-window', '20000'];
      const first = await runCli(cli, [...args, '-p', 'Read the four docs.'], { cwd, env, timeoutMs: 60_000 });
      expect(first.code).toBe(0);
      const summary = JSON.parse(first.stdout) as { sessionId: string; compactions: number; toolCalls: number; answer: string };
      expect(summary.toolCalls).toBe(4);
      expect(summary.compactions).toBeGreaterThanOrEqual(1);
      expect(summary.answer).toBe('All four read.');
      const bodies = standin.requests as Body[];
      const summarising = bodies.filter((b) => !Array.isArray(b.tools) || b.tools.length === 0);
      expect(summarising.length).toBe(summary.compactions);
      const sentInFirstRun = bodies.length;
      // Before compacting, the first run sent doc0's text itself.
      expect(JSON.stringify(bodies[1].messages)).toContain('doc0 line 5 ');

      const second = await runCli(cli, [...args, '-p', 'What is next?', '--resume', summary.sessionId], { cwd, env, timeoutMs: 60_000 });
      expect(second.code).toBe(0);
      expect((JSON.parse(second.stdout) as { answer: string }).answer).toBe('Continuing from the summary.');
      expect(standin.requests).toHaveLength(sentInFirstRun + 1);
      const resumed = standin.requests.at(-1) as Body;
      const opening = resumed.messages[0].content.map((p) => p.text ?? '').join('');
      // The compacted history: its header, the user's prompt verbatim, the facts of the summarised reads, the summary.
      expect(opening.startsWith(COMPACTED_HEADER)).toBe(true);
      expect(opening).toContain('> Read the four docs.');
      expect(opening).toContain(`- read ${docs[0]}`);
      expect(opening).toContain(SUMMARY);
      const wire = JSON.stringify(resumed.messages);
      // doc0's text was summarised away; the kept turns (the last reads) are there verbatim.
      expect(wire).not.toContain('doc0 line 5 ');
      expect(wire).toContain('doc3 line 5 ');
      // Then the last answer and the new prompt, with every tool_use still answered.
      expect(
        resumed.messages
          .at(-1)
          ?.content.map((p) => p.text)
          .join(''),
      ).toBe('What is next?');
      const uses = resumed.messages.flatMap((m) => m.content.filter((p) => p.type === 'tool_use'));
      const results = resumed.messages.flatMap((m) => m.content.filter((p) => p.type === 'tool_result'));
      expect(results).toHaveLength(uses.length);
      // The resumed session is the same size as the compacted one, far under the window: no new compaction.
      expect(standin.requests.slice(sentInFirstRun).every((b) => Array.isArray((b as Body).tools))).toBe(true);
    } finally {
      await standin.close();
    }
  });
});

describe('/clear', () => {
  it('is in the log: a resume, and a rewind to a later prompt, start from the cleared conversation', async () => {
    const standin = await startStandin({ dialect: 'anthropic', script: [{ text: 'one' }, { text: 'two' }] });
    const home = tempDir('wield-clear-home-');
    const session = await openAgentSession({
      cwd: tempDir('wield-clear-cwd-'),
      flags: { provider: 'anthropic', model: 'standin-model', baseUrl: standin.url },
      env: cleanEnv(home),
    });
    try {
      await session.send('before the clear', new AbortController().signal);
      expect(session.clear()).toBe(2);
      await session.send('after the clear', new AbortController().signal);
      const sent = JSON.stringify((standin.requests.at(-1) as Body).messages);
      expect(sent).not.toContain('before the clear');
      const texts = (messages: { content: { type: string; text?: string }[] }[]) =>
        messages.flatMap((m) => m.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])));
      expect(texts(loadSessionForResume(session.log.file).messages)).toEqual(['after the clear', 'two']);
      // Rewinding to before the second prompt: the conversation then was the cleared one.
      const { records } = readSession(session.log.file);
      const second = recordedPrompts(records)[1];
      expect(second?.text).toBe('after the clear');
      expect(messagesOf(records.slice(0, second?.at))).toEqual([]);
    } finally {
      await session.close();
      await standin.close();
    }
  });
});
