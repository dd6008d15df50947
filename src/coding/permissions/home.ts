// The home folder `~` means wherever security depends on it: `Read(~/…)` rules, the credentials
// the sandbox hides, `~/` in settings. It is the user's real one, never WIELD_HOME, which only
// moves wield's own folder (settings, sessions): with WIELD_HOME=/tmp/x, `~/.ssh` is still the
// `.ssh` that ssh reads.
import os from 'node:os';
import path from 'node:path';

/** `$HOME` as the shell expands `~`, else the account's home from the password database. */
export function userHome(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.HOME;
  return home !== undefined && path.isAbsolute(home) ? path.resolve(home) : os.userInfo().homedir;
}

/**
 * Every folder a program may take for the home: `$HOME` (git, npm, the shell) and the password
 * database's entry (ssh reads `~/.ssh` from there whatever `$HOME` says). Credentials are hidden
 * under each.
 */
export function userHomes(env: NodeJS.ProcessEnv = process.env): string[] {
  let account: string | undefined;
  try {
    account = os.userInfo().homedir;
  } catch {
    // No password entry for this uid (some containers): $HOME is all there is.
  }
  return [...new Set([userHome(env), ...(account ? [account] : [])])];
}
