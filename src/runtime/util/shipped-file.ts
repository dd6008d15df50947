// Files the build puts into dist/ beside the bundles: WASM binaries whose packages are not
// dependencies of the installed package, and the entry of a worker thread.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** A file shipped in dist/, beside the bundled chunk that asks or one folder up; else undefined (running from the sources). */
export function findShippedFile(name: string): string | undefined {
  const here = fileURLToPath(new URL('.', import.meta.url));
  return [`${here}${name}`, `${here}../${name}`].find((candidate) => existsSync(candidate));
}

/**
 * A file shipped in dist/ (findShippedFile). From the sources (tests, a checkout), the package's
 * own copy through `fromPackage` (a resolvable specifier).
 */
export function shippedFile(name: string, fromPackage: string): string {
  return findShippedFile(name) ?? createRequire(import.meta.url).resolve(fromPackage);
}
