// Files the build copies into dist/ beside the bundles (WASM binaries whose packages are not
// dependencies of the installed package).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * A file shipped in dist/: beside the bundled chunk that asks or one folder up. From the sources
 * (tests, a checkout), the package's own copy through `fromPackage` (a resolvable specifier).
 */
export function shippedFile(name: string, fromPackage: string): string {
  const here = fileURLToPath(new URL('.', import.meta.url));
  for (const candidate of [`${here}${name}`, `${here}../${name}`]) if (existsSync(candidate)) return candidate;
  return createRequire(import.meta.url).resolve(fromPackage);
}
