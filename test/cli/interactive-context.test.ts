// Making room in the context is said on screen, in a real terminal: which old results were
// cleared and where each is saved (Ctrl-O lists them), what a compaction summarised (Ctrl-O shows
// the summary), what /clear forgot, and where the whole conversation stays.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startStandin, type Standin } from '../support/standin/index.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, tempDir } from './helpers.js';
import { TmuxSession } from './tmux.js';

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

describe('interactive context notices', () => {
  let standin: Standin | undefined;
  let tmux: TmuxSession | undefined;
  afterAll(async () => {
    tmux?.kill();
    await standin?.close();
  });

  it('says when old results are cleared and the conversation summarised, and how to read them back', async () => {
    const cwd = tempDir('wield-ctx-cwd-');
    const home = tempDir('wield-ctx-home-');
    // ~6k tokens a file in a 20,000-token window: reading them makes clearing, then compaction, run.
    const docs = [0, 1, 2, 3, 4].map((i) => path.join(cwd, `doc${i}.txt`));
    for (const [i, file] of docs.entries()) {
      writeFileSync(file, `${Array.from({ length: 300 }, (_, n) => `doc${i} line ${n} ${'.'.repeat(60)}`).join('\n')}\n`);
    }
    mkdirSync(path.join(home, '.wield'), { recursive: true });
    // Without RunCode: its listing would take ~2k of the 20k window this sequence is sized for.
    writeFileSync(path.join(home, '.wield', 'settings.json'), JSON.stringify({ context: { turnBudget: false }, codeMode: false }));
    standin = await startStandin({
      dialect: 'anthropic',
      countTokens: true,
      replyWithoutTools: { text: 'SUMMARY-OF-THE-READS' },
      script: [...docs.map((file) => ({ toolCalls: [{ name: 'Read', arguments: { file_path: file } }] })), { text: 'All read.' }],
    });
    tmux = TmuxSession.start(
      `wield-ctx-${process.pid}`,
      [process.execPath, cli, ...providerArgs('anthropic'), '--context-window', '20000'],
      cleanEnv(home, { ...providerEnv('anthropic', standin.url), TERM: 'xterm' }),
      cwd,
    );
    await tmux.waitForPrompt();
    tmux.type('read the docs');
    const screen = await tmux.waitFor('All read.');
    if (process.env.SHOW_SCREEN) console.log(screen);
    expect(screen).toMatch(/◇ context: \d+ old tool results? cleared to save room \(\d+ Read\)/);
    tmux.keys('C-o');
    let shown = await tmux.waitFor('── the 3 tool results cleared so far ──');
    expect(shown).toMatch(/Read \{"file_path":".*doc0\.txt"\}\n\s+saved in \S+/);

    tmux.type('/compact');
    shown = await tmux.waitFor(/◇ context: \d+ older messages summarised; the last turns are kept verbatim · Ctrl-O shows the summary/);
    expect(shown).toMatch(/the whole conversation stays in\s+\S+\.jsonl/);
    tmux.keys('C-o');
    await tmux.waitFor('── the summary the model sees now ──');
    await tmux.waitFor('SUMMARY-OF-THE-READS');

    tmux.type('/clear');
    await tmux.waitFor(
      /◇ conversation cleared: \d+ messages forgotten, the next prompt starts fresh; they stay in the session log:\s+\S+\.jsonl/,
    );
    tmux.type('/exit');
    await tmux.waitFor(/\[exit 0\]/);
  });
});
