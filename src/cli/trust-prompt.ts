// The trust question of the first interactive run in a folder whose files would change what wield
// does, and `wield trust [--revoke]`: both record the answer for the user (trust in the user
// settings, "do not trust" in ~/.wield/projects.json), so it is asked once.
import { distrustProject, trustProject } from '../coding/settings/load.js';
import { projectsFile, updateProjectRecord } from '../coding/settings/projects.js';
import { parseTrustReply, shouldAskTrust, trustQuestion } from '../coding/settings/trust.js';
import { wieldHome } from '../runtime/agent/session-store.js';
import type { CliFlags } from './options.js';
import { loadCliSettings } from './settings.js';

export interface TrustAsk {
  /** One answer line from the person. */
  ask: (prompt: string) => Promise<string>;
  line: (text: string) => void;
}

/** Asks when needed and records the answer; returns whether a question was asked. */
export async function askTrustIfNeeded(cwd: string, flags: CliFlags, env: NodeJS.ProcessEnv, io: TrustAsk): Promise<boolean> {
  const { loaded } = await loadCliSettings(cwd, flags, env);
  if (!shouldAskTrust(loaded.trusted, loaded.ignored, loaded.project)) return false;
  io.line(trustQuestion(cwd, loaded.ignored));
  for (;;) {
    const reply = parseTrustReply(await io.ask('> '));
    if (reply === 'yes') {
      await trustProject(cwd, wieldHome(env));
      io.line('  trusted: its settings, hooks and .mcp.json apply in every session here (`wield trust --revoke` undoes it)');
      return true;
    }
    if (reply === 'no') {
      await distrustProject(cwd, wieldHome(env));
      // The answer is the notice: the ignored items are not told again.
      await updateProjectRecord(projectsFile(wieldHome(env)), cwd, (record) => ({
        ...record,
        noticed: [...new Set([...(record.noticed ?? []), ...loaded.ignored])],
      }));
      io.line('  not trusted: only the deny and ask rules of its files apply (`wield trust` trusts it later)');
      return true;
    }
    io.line('  answer y or n');
  }
}

/** `wield trust [--revoke]` for the working folder: what changes, in one line. */
export async function runTrust(cwd: string, revoke: boolean, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  if (revoke) {
    await distrustProject(cwd, wieldHome(env));
    return `not trusted: ${cwd} — from the next run only the deny and ask rules of its files apply; its allow rules, hooks and .mcp.json servers do not\n`;
  }
  await trustProject(cwd, wieldHome(env));
  return `trusted: ${cwd} — from the next run its settings, hooks and .mcp.json servers apply (\`wield trust --revoke\` undoes it)\n`;
}
