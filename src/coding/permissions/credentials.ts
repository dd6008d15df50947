// The one list of credential files and folders: the Bash analyser refuses to auto-read a path that
// names one (wherever it is), and the sandbox hides those in the home folder from every command.
// Kept here, outside both, so the two can never disagree about what a secret is.

/** Names of files and folders that hold credentials; `*` is the only wildcard. */
export const CREDENTIAL_NAMES: readonly string[] = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.kube',
  '.docker',
  '.azure',
  '.password-store',
  '.env',
  '.env.*',
  '.envrc',
  '*.env',
  '.netrc',
  '.pgpass',
  '.git-credentials',
  'credentials',
  'credentials.*',
  '.npmrc',
  '.yarnrc.yml',
  '.pypirc',
  '.htpasswd',
  '.vault-token',
  '.boto',
  '.s3cfg',
  '.my.cnf',
  '.terraformrc',
  '.dockercfg',
  'shadow',
  'gshadow',
  'sudoers',
  '*.pem',
  '*.key',
  '*.p12',
  '*.pfx',
  '*.ppk',
  '*.keystore',
  '*.jks',
  '*.kdbx',
  'id_rsa*',
  'id_dsa*',
  'id_ecdsa*',
  'id_ed25519*',
  'secrets.*',
  '*.secret',
  '*.secrets',
  '*.tfstate',
  '*.tfvars',
  'service-account*.json',
  '.bash_history',
  '.zsh_history',
];

/** Credential folders named by two segments. */
export const CREDENTIAL_DIRS: readonly (readonly [string, string])[] = [
  ['.config', 'gcloud'],
  ['.config', 'gh'],
  ['.config', 'hub'],
  ['.cargo', 'credentials.toml'],
  ['.gem', 'credentials'],
];

/**
 * The home-folder entries the sandbox hides (`~/.ssh`, `~/.config/gh`…): every name above without
 * a wildcard, and the two-segment folders. Names with a wildcard are found by the analyser, not
 * hidden: searching a whole home for `*.pem` on every command would cost more than it protects.
 */
export const HOME_CREDENTIALS: readonly string[] = [
  ...CREDENTIAL_NAMES.filter((name) => !name.includes('*')).map((name) => `~/${name}`),
  ...CREDENTIAL_DIRS.map(([dir, name]) => `~/${dir}/${name}`),
];
