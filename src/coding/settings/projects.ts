// What wield remembers per project folder, in ~/.wield/projects.json (the user's own file, so
// what it holds is trusted wherever the folder is): a "do not trust" answer, so the trust question
// is asked once; the ignored settings already told, so that notice is said once; and the rules
// "always" answers saved in a project that is not trusted (whose own files would not apply them).
// Trust itself is recorded in the user settings (`trustedProjects`).
import path from 'node:path';
import { realpathSync } from 'node:fs';
import { z } from 'zod';
import { formatLocatedError, readJsonFile, updateJsonFile, type LocatedError } from './json-file.js';

const projectRecord = z.strictObject({
  /** The person answered "do not trust" (or revoked trust): the question is not asked again. */
  declined: z.boolean().optional(),
  /** Ignored-settings items already told to the person (see describeIgnored). */
  noticed: z.array(z.string()).optional(),
  /** Allow rules from "always" answers, applied for this folder only. */
  allow: z.array(z.string()).optional(),
});

const projectsSchema = z.strictObject({ projects: z.record(z.string(), projectRecord).optional() });

export type ProjectRecord = z.infer<typeof projectRecord>;

export function projectsFile(wieldHome: string): string {
  return path.join(wieldHome, '.wield', 'projects.json');
}

/** The key a folder is recorded under: its real path, as trustedProjects compares. */
export function projectKey(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

export type ProjectRead = { ok: true; record: ProjectRecord } | { ok: false; error: LocatedError };

/** This folder's record; an absent file is an empty record, a malformed one an error with its place. */
export async function readProjectRecord(file: string, dir: string): Promise<ProjectRead> {
  const read = await readJsonFile(file);
  if (read.kind === 'missing') return { ok: true, record: {} };
  if (read.kind === 'error') return { ok: false, error: read.error };
  const parsed = projectsSchema.safeParse(read.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue.path.filter((s): s is string | number => typeof s !== 'symbol');
    return { ok: false, error: { file, ...read.locate(at), message: `${issue.message}; wield writes this file, so it can be deleted` } };
  }
  return { ok: true, record: parsed.data.projects?.[projectKey(dir)] ?? {} };
}

/** Rewrites this folder's record through `update`, keeping every other folder's and key. */
export async function updateProjectRecord(file: string, dir: string, update: (record: ProjectRecord) => ProjectRecord): Promise<void> {
  const key = projectKey(dir);
  await updateJsonFile(file, (data) => {
    const projects = typeof data.projects === 'object' && data.projects !== null ? (data.projects as Record<string, ProjectRecord>) : {};
    const next = update(projects[key] ?? {});
    const rest = { ...projects };
    delete rest[key];
    return { ...data, projects: Object.keys(next).length === 0 ? rest : { ...rest, [key]: next } };
  });
}

/** Adds allow rules to this folder's record (no duplicates). */
export async function saveProjectRules(file: string, dir: string, rules: readonly string[]): Promise<void> {
  await updateProjectRecord(file, dir, (record) => {
    const allow = [...(record.allow ?? [])];
    for (const rule of rules) if (!allow.includes(rule)) allow.push(rule);
    return { ...record, allow };
  });
}

export { formatLocatedError };
