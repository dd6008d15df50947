// Environment variables a command may be given without changing what runs: locale and layout only.
// Anything else (PATH, LD_PRELOAD, PAGER, LESSOPEN, GIT_*, …) can make a program run other code.
const SAFE_ENV = /^(LC_[A-Z]+|LANG|LANGUAGE|TZ|NO_COLOR|COLUMNS|LINES)$/;

export function isSafeEnvName(name: string): boolean {
  return SAFE_ENV.test(name);
}

/** `NAME=value` with a safe name. */
export function isSafeEnvAssignment(text: string): boolean {
  const eq = text.indexOf('=');
  return eq > 0 && isSafeEnvName(text.slice(0, eq));
}
