// Environment variables a command may be given without changing what runs: locale and layout only.
// Anything else (PATH, LD_PRELOAD, PAGER, LESSOPEN, GIT_*, …) can make a program run other code.
const SAFE_ENV = /^(LC_[A-Z]+|LANG|LANGUAGE|TZ|NO_COLOR|COLUMNS|LINES)$/;

export function isSafeEnvName(name: string): boolean {
  return SAFE_ENV.test(name);
}

/**
 * A locale value with a `/` is a folder of locale files that glibc loads; names never have one.
 * TZ names a zoneinfo file under the system folder (`Europe/Paris`); an absolute or `..` path
 * makes glibc parse any file as one.
 */
export function isSafeEnvValue(name: string, value: string): boolean {
  if (name === 'TZ') return !/^:?\/|(^|\/)\.\.(\/|$)/.test(value);
  return !/^(LC_|LANG)/.test(name) || !value.includes('/');
}

/** `NAME=value` with a safe name and value. */
export function isSafeEnvAssignment(text: string): boolean {
  const eq = text.indexOf('=');
  return eq > 0 && isSafeEnvName(text.slice(0, eq)) && isSafeEnvValue(text.slice(0, eq), text.slice(eq + 1));
}
