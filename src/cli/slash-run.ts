// Running the interactive session's slash commands against its state. Reading a line is in
// slash-commands.ts (pure); this is the part with effects (compaction, files, the pickers).
import type { AgentSession } from './agent-session.js';
import { costText, helpText, type SessionSpend, type SlashLine, type SlashName } from './slash-commands.js';
import type { McpManager } from '../runtime/mcp/manager.js';
import { formatRules, listedRules, readRemove, SESSION_SOURCE } from './permissions-view.js';
import { removeRule } from '../coding/settings/persist.js';
import { wieldHome } from '../runtime/agent/session-store.js';
import { listSessions } from './session-list.js';
import type { SessionEntry } from './session-list.js';
import { clearedConversationText, compactedNotice } from './context-view.js';
import { runRewind } from './rewind-run.js';
import type { Choice } from './screen.js';

export interface SlashContext {
  session: AgentSession;
  spent: SessionSpend;
  signal: AbortSignal;
  /** Asks the person to pick one of these sessions (undefined: stay). */
  pick: (entries: SessionEntry[]) => Promise<string | undefined>;
  /** What the expand key (Ctrl-O) shows next. */
  expandable: (summary: string, lines: string[]) => void;
  /** One answer among `choices`, `intro` written above them (Esc gives the escape one). */
  choose: (label: string, choices: readonly Choice[], intro?: string) => Promise<string>;
  /** Puts text in the editor, before what was typed since. */
  restoreInput: (text: string) => void;
  /** Replaces the running session with the saved one. */
  switchTo: (id: string) => Promise<void>;
}

export async function runSlash(name: Exclude<SlashName, 'exit'>, args: string, ctx: SlashContext): Promise<string> {
  const { session } = ctx;
  switch (name) {
    case 'help':
      return helpText();
    case 'clear': {
      return clearedConversationText(session.clear(), session.log.file);
    }
    case 'compact': {
      const outcome = await session.compact(ctx.signal);
      if (!outcome.ok) return outcome.error;
      ctx.spent.usage.inputTokens += outcome.usage.inputTokens;
      ctx.spent.usage.outputTokens += outcome.usage.outputTokens;
      ctx.spent.turns += 1;
      const notice = compactedNotice(outcome.summarised, outcome.messages, session.log.file);
      ctx.expandable(notice.detail.summary, notice.detail.lines);
      return notice.line;
    }
    case 'rewind':
      return runRewind({ session, choose: ctx.choose, restoreInput: ctx.restoreInput });
    case 'resume': {
      const entries = listSessions(process.env, session.runtime.session.cwd).filter((entry) => entry.id !== session.id);
      if (entries.length === 0) return 'no other saved session was started in this folder';
      const id = await ctx.pick(entries);
      if (id === undefined) return 'staying in this session';
      await ctx.switchTo(id);
      return '';
    }
    case 'permissions': {
      const policy = session.runtime.policy;
      const rules = listedRules(session.runtime.settings.permissions, policy.sessionRules());
      const request = readRemove(args, rules);
      if (request === undefined) return formatRules(rules);
      if (!request.ok) return `error: ${request.message}`;
      const { rule } = request;
      if (rule.source === SESSION_SOURCE) {
        policy.removeSessionRule(rule.text);
        return `removed allow ${rule.text} (this session): the next such call asks again`;
      }
      const removed = await removeRule(rule.source, rule.list, rule.text, session.runtime.session.cwd, wieldHome());
      if (!removed) return `error: ${rule.source} no longer holds ${rule.text}; nothing changed`;
      // The policy reads these lists as they are: the rule stops applying now, not only next run.
      const live = session.runtime.settings.permissions[rule.list];
      const at = live.findIndex((r) => r.text === rule.text && r.source === rule.source);
      if (at >= 0) live.splice(at, 1);
      return `removed ${rule.list} ${rule.text} from ${rule.source}`;
    }
    case 'model': {
      if (args === '')
        return `${session.provider.name} · ${session.model} (/model NAME switches to another model of ${session.provider.name})`;
      if (/\s/.test(args)) return `error: a model name has no spaces, not ${JSON.stringify(args)}; e.g. /model claude-sonnet-4-5`;
      const previous = session.model;
      session.model = args;
      return `model: ${args} from the next prompt on (was ${previous}; ${session.provider.name}); a name the provider does not know fails at the next request`;
    }
    case 'cost':
      return costText(session.model, ctx.spent);
    case 'tools':
      return session.runtime.registry
        .all()
        .map((tool) => tool.name)
        .join(', ');
    case 'mcp': {
      const servers = session.runtime.mcp?.list() ?? [];
      if (servers.length === 0) return 'no MCP servers in this session (settings mcpServers, .mcp.json or --mcp-config add them)';
      return servers.map((server) => `${server.name}: ${server.state}${server.error ? ` (${server.error})` : ''}`).join('\n');
    }
  }
}

type McpPromptLine = Extract<SlashLine, { kind: 'mcp-prompt' }>;

/** An MCP server's prompt as the text of the user's prompt (its messages' text, in order), or why not. */
export async function mcpPromptText(
  mcp: McpManager | undefined,
  line: McpPromptLine,
  signal: AbortSignal,
): Promise<{ ok: true; text: string } | { ok: false; message: string }> {
  if (!mcp) return { ok: false, message: 'no MCP servers in this session (settings mcpServers, .mcp.json or --mcp-config add them)' };
  // Loaded here, not at start-up: only a session that uses an MCP prompt needs it.
  const { getMcpPrompt } = await import('../runtime/mcp/resources.js');
  const got = await getMcpPrompt(mcp, line.server, line.prompt, line.args, signal);
  if (!got.ok) return { ok: false, message: got.message };
  const texts = got.result.messages.flatMap(({ content }) => {
    if (content.type === 'text') return [content.text];
    if (content.type === 'resource' && 'text' in content.resource) return [content.resource.text];
    return [];
  });
  if (texts.length === 0) return { ok: false, message: `prompt "${line.prompt}" of MCP server "${line.server}" has no text to send` };
  return { ok: true, text: texts.join('\n\n') };
}
