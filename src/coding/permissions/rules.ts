// Permission rules: `Tool` or `Tool(content)`, as Claude Code users already write them.
// Parsing and the generic matchers (tool names, path patterns, WebFetch domains) are pure;
// command patterns are matched by the tool's own permissionMatcher (Bash → the shell analyser).
import path from 'node:path';
import picomatch from 'picomatch';
import { hostAllowed } from '../../runtime/network/guard.js';

export interface ParsedRule {
  /** Tool name, alias, `mcp__server`, `mcp__server__tool` or `mcp__server__*`. */
  tool: string;
  /** Unescaped content between the parentheses; absent for a whole-tool rule. */
  content?: string;
}

/** A rule as loaded from one settings layer. */
export interface Rule extends ParsedRule {
  /** The rule as written. */
  text: string;
  /** Where it came from: a settings file path, `flags` or `session`. */
  source: string;
  /** Folder that relative path patterns are anchored to. */
  base: string;
}

export type RuleParse = { ok: true; rule: ParsedRule } | { ok: false; message: string };

// Tool names are [A-Za-z0-9_-]; a trailing `*` only makes sense for `mcp__server__*`.
const TOOL_NAME = /^[A-Za-z0-9_-]+$/;
const MCP_WILDCARD = /^mcp__[A-Za-z0-9_-]+__\*$/;

/** Parses `Tool` or `Tool(content)`; inside content `\(`, `\)` and `\\` are escapes. */
export function parseRule(text: string): RuleParse {
  const open = text.indexOf('(');
  const tool = (open === -1 ? text : text.slice(0, open)).trim();
  if (!TOOL_NAME.test(tool) && !MCP_WILDCARD.test(tool)) {
    return {
      ok: false,
      message: `rule ${JSON.stringify(text)}: tool name ${JSON.stringify(tool)} is not valid; write \`Tool\` or \`Tool(content)\`, e.g. \`Bash(git log *)\`, \`Read(src/**)\`, \`mcp__server__tool\``,
    };
  }
  if (open === -1) return { ok: true, rule: { tool } };
  const body = text.slice(open + 1);
  let content = '';
  let depth = 0;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch === '\\' && (body[i + 1] === '(' || body[i + 1] === ')' || body[i + 1] === '\\')) {
      content += body[i + 1];
      i++;
    } else if (ch === '(') {
      depth++;
      content += ch;
    } else if (ch === ')') {
      if (depth > 0) {
        depth--;
        content += ch;
        continue;
      }
      if (i !== body.length - 1) {
        return { ok: false, message: `rule ${JSON.stringify(text)}: text after the closing ")" (escape a literal parenthesis as \\) )` };
      }
      if (content.trim() === '') {
        return { ok: false, message: `rule ${JSON.stringify(text)}: empty content; write \`${tool}\` to match every call of the tool` };
      }
      return { ok: true, rule: { tool, content } };
    } else {
      content += ch;
    }
  }
  return { ok: false, message: `rule ${JSON.stringify(text)}: missing closing ")"; write \`${tool}(content)\`` };
}

/** Writes a rule so that parseRule gives back exactly (tool, content). */
export function formatRule(tool: string, content?: string): string {
  if (content === undefined) return tool;
  return `${tool}(${content.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

/** The parts of a tool that rule names refer to. */
export interface RuleTarget {
  name: string;
  aliases: readonly string[];
  source?: string;
  server?: string;
}

/** Does a rule's tool name refer to this tool (by name, alias or MCP server)? */
/**
 * As in Claude Code, an `Edit` rule speaks for every built-in tool that edits files and a `Read`
 * rule for every built-in that reads them: denying "Edit" must stop Write as well.
 */
const FILE_TOOL_FAMILIES: Readonly<Record<string, readonly string[]>> = {
  Edit: ['Edit', 'Write', 'apply_patch'],
  Write: ['Edit', 'Write', 'apply_patch'],
  Read: ['Read', 'Grep', 'Glob', 'LS'],
};

export function toolNameMatches(ruleTool: string, tool: RuleTarget): boolean {
  if (ruleTool === tool.name || tool.aliases.includes(ruleTool)) return true;
  if (tool.source === 'builtin' && FILE_TOOL_FAMILIES[ruleTool]?.includes(tool.name)) return true;
  if (!ruleTool.startsWith('mcp__')) return false;
  const server = ruleTool.endsWith('__*') ? ruleTool.slice(5, -3) : ruleTool.slice(5);
  if (server.includes('__')) return false; // a full mcp__server__tool name, already compared
  return tool.name.startsWith(`mcp__${server}__`) || (tool.source === 'mcp' && tool.server === server);
}

export interface PathRuleContext {
  /** Folder of the settings the rule came from (relative patterns anchor here). */
  base: string;
  home: string;
}

// Gitignore-style path patterns (the syntax Claude Code users write): `//abs` is absolute, `~/`
// is the home folder, a leading `/` or `./` or any inner slash anchors to the settings folder,
// and a bare name matches at any depth. A pattern that matches a folder covers what is inside.
// picomatch does the globbing; the `ignore` package only takes relative paths inside one root,
// while rules must also speak about absolute and home paths.

/** A path pattern read once: the folder it is relative to and its glob (none: all under root). */
export interface CompiledPathRule {
  root: string;
  isMatch?: (rel: string) => boolean;
}

export function compilePathRule(content: string, ctx: PathRuleContext): CompiledPathRule {
  let pattern = content;
  let root: string;
  if (pattern.startsWith('//')) {
    root = '/';
    pattern = pattern.slice(2);
  } else if (pattern === '~' || pattern.startsWith('~/')) {
    root = ctx.home;
    pattern = pattern.slice(2);
  } else if (pattern.startsWith('./')) {
    root = ctx.base;
    pattern = pattern.slice(2);
  } else if (pattern.startsWith('/')) {
    root = ctx.base;
    pattern = pattern.slice(1);
  } else if (pattern.replace(/\/+$/, '').includes('/')) {
    root = ctx.base;
  } else {
    root = '/';
    pattern = `**/${pattern}`;
  }
  pattern = pattern.replace(/\/+$/, '');
  root = path.resolve(root);
  if (pattern === '' || pattern === '**') return { root };
  return { root, isMatch: picomatch(pattern, { dot: true }) };
}

/** path.relative(root, file) for a resolved file at or below root, else undefined (without path.relative's cost). */
function below(root: string, file: string): string | undefined {
  if (file === root) return '';
  if (root === path.sep) return file.slice(1);
  return file.startsWith(root + path.sep) ? file.slice(root.length + 1) : undefined;
}

export function compiledRuleMatches(rule: CompiledPathRule, absPath: string): boolean {
  const rel = below(rule.root, path.resolve(absPath));
  // A name starting with `..` reads as climbing out of root: never matched.
  if (rel === undefined || rel.startsWith('..')) return false;
  if (!rule.isMatch) return true;
  // The file itself or any folder above it (a folder pattern covers its contents).
  const posix = path.sep === '/' ? rel : rel.split(path.sep).join('/');
  for (let end = posix.length; end > 0; end = posix.lastIndexOf('/', end - 1)) {
    if (rule.isMatch(posix.slice(0, end))) return true;
  }
  return rel === '' && rule.isMatch('');
}

export function matchPathRule(content: string, absPath: string, ctx: PathRuleContext): boolean {
  return compiledRuleMatches(compilePathRule(content, ctx), absPath);
}

/** `domain:example.com` matches that host; `domain:*.example.com` also its subdomains (as the network guard's allow-list). */
export function matchDomainRule(content: string, url: string): boolean {
  if (!content.startsWith('domain:') || !URL.canParse(url)) return false;
  return hostAllowed(new URL(url).hostname, [content.slice('domain:'.length)]);
}
