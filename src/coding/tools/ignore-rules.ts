// .gitignore-style rules as ripgrep applies them: every folder's .gitignore, .ignore and
// .rgignore apply to paths below it; an ignored folder hides everything inside; `.git` is
// always skipped. Rules are loaded lazily, one folder at a time.
import fs from 'node:fs';
import path from 'node:path';
import ignore from 'ignore';
import type { Ignore } from 'ignore';

const RULE_FILES = ['.gitignore', '.ignore', '.rgignore'];

export class IgnoreRules {
  private readonly perDir = new Map<string, Ignore | null>();

  /** @param root absolute folder the relative paths start from. */
  constructor(private readonly root: string) {}

  private rulesOf(relDir: string): Ignore | null {
    const cached = this.perDir.get(relDir);
    if (cached !== undefined) return cached;
    let rules: Ignore | null = null;
    for (const name of RULE_FILES) {
      let text: string;
      try {
        text = fs.readFileSync(path.join(this.root, relDir, name), 'utf8');
      } catch {
        continue;
      }
      rules ??= ignore();
      rules.add(text);
    }
    this.perDir.set(relDir, rules);
    return rules;
  }

  /** Whether one entry is ignored by the rules of its ancestors (not checking ancestors themselves). */
  ignoresEntry(relPath: string, isDir: boolean): boolean {
    const parts = relPath.split('/');
    if (parts[parts.length - 1] === '.git') return true;
    for (let depth = 0; depth < parts.length; depth++) {
      const dir = parts.slice(0, depth).join('/');
      const rules = this.rulesOf(dir);
      if (!rules) continue;
      const rel = parts.slice(depth).join('/') + (isDir ? '/' : '');
      // A later negation in a deeper file can re-include; the deepest verdict wins, as in git.
      const result = rules.test(rel);
      if (result.ignored) return !this.reincluded(parts, depth + 1, isDir);
    }
    return false;
  }

  private reincluded(parts: string[], fromDepth: number, isDir: boolean): boolean {
    for (let depth = fromDepth; depth < parts.length; depth++) {
      const rules = this.rulesOf(parts.slice(0, depth).join('/'));
      if (rules?.test(parts.slice(depth).join('/') + (isDir ? '/' : '')).unignored) return true;
    }
    return false;
  }

  /** Whether a path is ignored, itself or through an ignored ancestor folder. */
  ignores(relPath: string, isDir: boolean): boolean {
    const parts = relPath.split('/');
    for (let i = 1; i < parts.length; i++) if (this.ignoresEntry(parts.slice(0, i).join('/'), true)) return true;
    return this.ignoresEntry(relPath, isDir);
  }
}
