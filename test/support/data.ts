// Reads the evaluation data copied into test/data (JSON Lines, one object per line).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function testDataPath(folder: string, file: string): string {
  return fileURLToPath(new URL(`../data/${folder}/${file}`, import.meta.url));
}

export function readJsonl<T>(folder: string, file: string): T[] {
  return readFileSync(testDataPath(folder, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}
