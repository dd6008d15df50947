// `wield trust [--revoke]`: record (or take back) trust in this folder, as the interactive trust question does.
import type { Command } from 'commander';
import { commandAction, writeOut } from '../exit.js';

export function register(program: Command): void {
  const trust = program
    .command('trust')
    .description(
      "trust this folder: its settings' allow rules, hooks and .mcp.json apply from the next run (recorded in the user settings)",
    )
    .option('--revoke', 'stop trusting it: only the deny and ask rules of its files apply');
  trust.action(
    commandAction(async () => {
      const { runTrust } = await import('../trust-prompt.js');
      await writeOut(await runTrust(process.cwd(), trust.opts<{ revoke?: boolean }>().revoke === true));
      return 0;
    }),
  );
}
