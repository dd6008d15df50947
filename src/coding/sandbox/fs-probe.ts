// Small file-system questions the sandbox plan asks, answered without throwing.
import { readFile, realpath, stat } from 'node:fs/promises';

export async function kindOf(p: string): Promise<'dir' | 'file' | undefined> {
  try {
    return (await stat(p)).isDirectory() ? 'dir' : 'file';
  } catch {
    return undefined;
  }
}

export async function realOrUndefined(p: string): Promise<string | undefined> {
  try {
    return await realpath(p);
  } catch {
    return undefined;
  }
}

export async function readText(p: string): Promise<string | undefined> {
  try {
    return await readFile(p, 'utf8');
  } catch {
    return undefined;
  }
}
