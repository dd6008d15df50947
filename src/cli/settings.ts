// The settings every CLI command runs under: the layers of this folder plus the command-line
// flags. A malformed file stops the command with every problem named (file, line, key).
import { formatSettingsError, loadSettings, type LoadedSettings } from '../coding/settings/load.js';
import { wieldHome } from '../runtime/agent/session-store.js';
import { userHome } from '../coding/permissions/home.js';
import type { CliFlags } from './options.js';
import { SetupError } from './setup-error.js';

export interface CliSettings {
  /** The user's real home: what `~` means for rules and the sandbox (never WIELD_HOME). */
  home: string;
  loaded: LoadedSettings;
}

export async function loadCliSettings(cwd: string, flags: CliFlags, env: NodeJS.ProcessEnv = process.env): Promise<CliSettings> {
  const home = userHome(env);
  const loaded = await loadSettings({
    cwd,
    home,
    wieldHome: wieldHome(env),
    flags: { allow: flags.allow, deny: flags.deny, permissionMode: flags.permissionMode },
    trustProject: flags.trust,
  });
  if (loaded.errors?.length) {
    throw new SetupError(
      `Settings could not be read; fix these and run again:\n${loaded.errors.map((e) => `  ${formatSettingsError(e)}`).join('\n')}`,
    );
  }
  if (flags.sandbox) loaded.settings.sandbox.enabled = true;
  return { home, loaded };
}
