// `wield sessions [--all] [--json]`: the saved sessions started in this folder (or everywhere),
// newest first, with the id to pass to --resume.
import type { Command } from 'commander';
import { addJsonOption } from '../options.js';
import { commandAction, writeOut } from '../exit.js';
import { formatSessionList, listSessions } from '../session-list.js';

export function register(program: Command): void {
  const sessions = addJsonOption(
    program
      .command('sessions')
      .description('list saved sessions started in this folder, newest first (continue one with --resume ID, the newest with -c)')
      .option('--all', 'sessions of every folder'),
  );
  sessions.action(
    commandAction(async () => {
      const flags = sessions.opts<{ all?: boolean; json?: boolean }>();
      const entries = listSessions(process.env, flags.all ? undefined : process.cwd());
      if (flags.json) await writeOut(`${JSON.stringify(entries, null, 2)}\n`);
      else if (entries.length === 0)
        process.stderr.write(`wield: no saved session${flags.all ? '' : ' was started in this folder (--all lists every folder)'}\n`);
      else await writeOut(`${formatSessionList(entries)}\n`);
      return 0;
    }),
  );
}
