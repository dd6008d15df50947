// Errors the CLI reports without a stack trace. A light module of its own, so main.ts can
// load it without loading the runtime.

/** A problem with the user's setup: printed as is, exit code 2. */
export class SetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SetupError';
  }
}
