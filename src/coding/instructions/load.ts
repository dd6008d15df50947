// Reading the instruction files: the user's ~/.wield/AGENTS.md and, from the repository root down
// to the working folder, each folder's AGENTS.md (or CLAUDE.md). Read once per session; the
// section it makes goes into the system prompt unchanged for the whole session, so it caches.
import { closeSync, existsSync, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import path from 'node:path';
import {
  assembleInstructions,
  chooseInstructionFile,
  type InstructionFile,
  type Instructions,
  instructionFolders,
  MAX_INSTRUCTION_BYTES,
} from './assemble.js';

export * from './assemble.js';

export interface LoadInstructionsOptions {
  cwd: string;
  /** The folder holding wield's own `.wield/` (WIELD_HOME, else the home folder). */
  wieldHome: string;
  trusted: boolean;
}

export interface LoadedInstructions extends Instructions {
  /** Every folder looked in, user folder first. */
  searched: string[];
}

/** The nearest folder at or above `cwd` that holds `.git` (a folder or a worktree's file). */
export function findRepositoryRoot(cwd: string): string | undefined {
  let current = path.resolve(cwd);
  for (;;) {
    if (existsSync(path.join(current, '.git'))) return current;
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/** Only this much of a file is read (the cap cuts the rest anyway); its size comes from stat. */
const READ_LIMIT = MAX_INSTRUCTION_BYTES + 4;

function readFolder(folder: string, scope: InstructionFile['scope']): InstructionFile | undefined {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return undefined;
  }
  const name = chooseInstructionFile(names);
  if (name === undefined) return undefined;
  const file = path.join(folder, name);
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    const buffer = Buffer.alloc(Math.min(size, READ_LIMIT));
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return { path: file, scope, text: buffer.subarray(0, read).toString('utf8'), bytes: size };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export function loadInstructions(options: LoadInstructionsOptions): LoadedInstructions {
  const userFolder = path.join(options.wieldHome, '.wield');
  const folders = instructionFolders(options.cwd, findRepositoryRoot(options.cwd));
  const files: InstructionFile[] = [];
  const user = readFolder(userFolder, 'user');
  if (user) files.push(user);
  for (const folder of folders) {
    // Run from the home folder, ~/.wield is not a project folder; the user's file is read once.
    const found = readFolder(folder, 'project');
    if (found && found.path !== user?.path) files.push(found);
  }
  return { ...assembleInstructions(files, { trusted: options.trusted, cwd: options.cwd }), searched: [userFolder, ...folders] };
}
