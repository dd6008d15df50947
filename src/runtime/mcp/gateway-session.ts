// What one gateway client owns: its working folder and file-read records (a fork of the served
// session, so one client's `cd` never moves another's), and the deferred tools its ToolSearch
// calls found (they join that client's tools/list, and only that client's).
import { randomUUID } from 'node:crypto';
import type { Message } from '../providers/types.js';
import type { ToolRegistry } from '../registry/registry.js';
import { selectToolsForRequest, type DeferralOptions } from '../search/defer.js';
import { namesInResultText, TOOL_SEARCH_NAME } from '../search/result-text.js';
import type { AnyTool, SessionState, ToolCallResult } from '../tool/types.js';

/** A new session state that shares the served session's roots, folder and read-deny rules. */
export function forkSession(base: SessionState): SessionState {
  return { ...base, id: `${base.id}-${randomUUID().slice(0, 8)}`, cwd: base.cwd, fileState: new Map() };
}

export class GatewayClientState {
  readonly session: SessionState;
  /** ToolSearch results of this client, in the shape deferral reads from a model's history. */
  private readonly found: Message[] = [];

  constructor(base: SessionState) {
    this.session = forkSession(base);
  }

  /** Records a ToolSearch result; true when it brought tools this client did not have yet. */
  noteResult(result: ToolCallResult, before: readonly AnyTool[]): boolean {
    if (result.toolName !== TOOL_SEARCH_NAME || result.isError) return false;
    const shown = new Set(before.map((tool) => tool.name));
    const names = result.content.flatMap((block) => (block.type === 'text' ? namesInResultText(block.text) : []));
    if (names.every((name) => shown.has(name))) return false;
    this.found.push({
      role: 'user',
      content: [{ type: 'tool_result', toolUseId: result.toolUseId, toolName: TOOL_SEARCH_NAME, content: result.content, isError: false }],
    });
    return true;
  }

  visibleTools(registry: ToolRegistry, deferral: DeferralOptions | false | undefined): AnyTool[] {
    const pool = registry.pool();
    if (deferral === false) return pool;
    return selectToolsForRequest(pool, this.found, { cwd: this.session.cwd, ...deferral }).tools;
  }

  /** The deferred-tools section a model would get in its system prompt (for `instructions`). */
  deferredSection(registry: ToolRegistry, deferral: DeferralOptions | false | undefined): string {
    if (deferral === false) return '';
    return selectToolsForRequest(registry.pool(), [], { cwd: this.session.cwd, ...deferral }).systemPromptSection;
  }
}
