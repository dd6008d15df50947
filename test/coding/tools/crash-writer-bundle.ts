// crash-writer.ts bundled to one runnable file, for the tests that kill it mid-write.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export async function bundleCrashWriter(outfile: string): Promise<string> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  await build({
    entryPoints: [path.join(here, 'crash-writer.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'error',
  });
  return outfile;
}
