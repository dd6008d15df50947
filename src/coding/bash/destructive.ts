// Whether a command line deletes or overwrites something that cannot be had back: the Tool
// contract's isDestructive, which UIs use to warn before approval. Judged on every form a part may
// run (the rule forms: `sudo /bin/rm x` is `rm x`), so wrappers do not hide it. It never allows
// anything; a command it misses is still judged by the analyser and the permission rules.
import path from 'node:path';
import type { Node } from 'web-tree-sitter';
import { parseBash } from './parser.js';
import type { BashAnalysis } from './types.js';

const DESTRUCTIVE_FORMS: readonly RegExp[] = [
  /^(?:rm|rmdir|unlink|shred|truncate|wipefs)(?:\s|$)/,
  /^mkfs(?:\.\w+)?(?:\s|$)/,
  /^dd\s(?:.*\s)?of=/,
  /^find\s(?:.*\s)?-delete(?:\s|$)/,
  /^(?:sed|perl)\s(?:.*\s)?-[a-zA-Z]*i/,
  /^git\s+reset\s(?:.*\s)?--(?:hard|merge|keep)(?:\s|$)/,
  /^git\s+clean\s(?:.*\s)?-[a-zA-Z]*f/,
  /^git\s+checkout\s(?:.*\s)?(?:--|-f|--force|\.)(?:\s|$)/,
  /^git\s+(?:restore|rm|filter-branch|filter-repo)(?:\s|$)/,
  /^git\s+push\s(?:.*\s)?(?:--force\S*|-[a-zA-Z]*f|--delete|-d|--mirror|\+\S+|:\S+)(?:\s|$)/,
  /^git\s+branch\s(?:.*\s)?(?:-D|--delete\s+--force|-d\s+-f)(?:\s|$)/,
  /^git\s+stash\s+(?:drop|clear)(?:\s|$)/,
  /^git\s+(?:reflog\s+expire|update-ref\s+-d|worktree\s+remove)(?:\s|$)/,
  /^(?:docker|podman)\s+(?:rm|rmi|(?:system|image|volume|container|network)\s+(?:prune|rm))(?:\s|$)/,
  /^kubectl\s+delete(?:\s|$)/,
  /^terraform\s+destroy(?:\s|$)/,
];

/** Programs that overwrite their last operand when it exists. */
const OVERWRITES_TARGET = /^(?:mv|cp|install|ln\s+(?:.*\s)?-[a-zA-Z]*f)(?:\s|$)/;
/** `tee FILE` truncates FILE unless -a is given. */
const TEE = /^tee\s/;

/** Redirection operators that truncate their target. */
const TRUNCATING = new Set(['>', '>|', '&>']);

export interface DestructiveScope {
  cwd: string;
  /** Whether a path names an existing file (injected so the decision stays testable). */
  exists: (absPath: string) => boolean;
}

function operands(form: string): string[] {
  return form
    .split(/\s+/)
    .slice(1)
    .filter((word) => word !== '' && !word.startsWith('-'));
}

function overwritesExisting(form: string, scope: DestructiveScope): boolean {
  const named = operands(form);
  if (OVERWRITES_TARGET.test(form)) {
    const target = named.at(-1);
    return named.length >= 2 && target !== undefined && scope.exists(path.resolve(scope.cwd, target));
  }
  if (TEE.test(form) && !/\s-[a-zA-Z]*a/.test(form)) return named.some((file) => scope.exists(path.resolve(scope.cwd, file)));
  return false;
}

function truncatingRedirects(node: Node, scope: DestructiveScope): boolean {
  for (const redirect of node.descendantsOfType('file_redirect')) {
    if (!redirect) continue;
    const operator = redirect.children.find((child) => child && TRUNCATING.has(child.type));
    const target = redirect.childForFieldName('destination')?.text.replace(/^(['"])(.*)\1$/, '$2');
    if (!operator || !target || target.startsWith('/dev/')) continue;
    if (scope.exists(path.resolve(scope.cwd, target))) return true;
  }
  return false;
}

/** True when some part of the line deletes or overwrites: rm, git reset --hard, `>` onto an existing file, … */
export function isDestructiveCommand(command: string, analysis: BashAnalysis, scope: DestructiveScope): boolean {
  for (const part of analysis.parts) {
    for (const form of [part.command, ...(part.forms ?? [])]) {
      const words = form.trim().replace(/^(?:\S+=\S*\s+)+/, '');
      if (DESTRUCTIVE_FORMS.some((pattern) => pattern.test(words)) || overwritesExisting(words, scope)) return true;
    }
  }
  const tree = parseBash(command);
  return tree ? truncatingRedirects(tree.rootNode, scope) : false;
}
