// Registration by source, alias resolution, and the per-turn pool.
import type { AnyTool, ToolSource } from '../tool/types.js';

const SOURCE_RANK: Record<ToolSource, number> = { builtin: 0, mcp: 1, user: 2 };

export interface PoolOptions {
  /** True when a deny rule removes the tool whole (e.g. `deny: ["WebFetch"]`). */
  isDeniedWhole?: (tool: AnyTool) => boolean;
}

export class ToolRegistry {
  private readonly byName = new Map<string, AnyTool>();
  private readonly aliasToName = new Map<string, string>();
  private readonly listeners = new Set<() => void>();
  private batchDepth = 0;
  private pendingChange = false;

  /** `hidden`: tools never offered from this registry's pool (the permission rules that deny a tool whole). */
  constructor(private readonly hidden: PoolOptions = {}) {}

  /**
   * Registers a tool. On a name clash the higher-ranked source wins (builtin > mcp > user),
   * so an MCP server can never shadow a built-in; an equal source replaces (re-registration).
   */
  register(tool: AnyTool): boolean {
    const existing = this.byName.get(tool.name);
    if (existing && SOURCE_RANK[existing.source] < SOURCE_RANK[tool.source]) return false;
    if (existing) this.dropAliases(existing);
    this.byName.set(tool.name, tool);
    for (const alias of tool.aliases) {
      if (!this.byName.has(alias)) this.aliasToName.set(alias, tool.name);
    }
    this.changed();
    return true;
  }

  unregister(name: string): boolean {
    const tool = this.byName.get(name);
    if (!tool) return false;
    this.byName.delete(name);
    this.dropAliases(tool);
    this.changed();
    return true;
  }

  get(nameOrAlias: string): AnyTool | undefined {
    return this.byName.get(nameOrAlias) ?? this.byName.get(this.aliasToName.get(nameOrAlias) ?? '');
  }

  /** Every registered tool in stable order: by source rank, then name. */
  all(): AnyTool[] {
    return [...this.byName.values()].sort(
      (a, b) => SOURCE_RANK[a.source] - SOURCE_RANK[b.source] || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
    );
  }

  names(): string[] {
    return this.all().map((tool) => tool.name);
  }

  /**
   * The tools a turn may offer: enabled, not removed whole by a deny rule, stable order
   * (prompt caching depends on the same order turn after turn). Every consumer that shows tools
   * (the agent loop, `wield tools`, the MCP gateway, ToolSearch's index) reads this one list.
   */
  pool(options: PoolOptions = {}): AnyTool[] {
    const denied = (tool: AnyTool): boolean => this.hidden.isDeniedWhole?.(tool) === true || options.isDeniedWhole?.(tool) === true;
    return this.all().filter((tool) => safeEnabled(tool) && !denied(tool));
  }

  /**
   * Runs fn with change notifications held back, then notifies once: registering a server's
   * 2,000 tools should refresh listeners (the ToolSearch index) once, not 2,000 times.
   */
  batch<T>(fn: () => T): T {
    this.batchDepth++;
    try {
      return fn();
    } finally {
      this.batchDepth--;
      if (this.batchDepth === 0 && this.pendingChange) this.changed();
    }
  }

  /** Called after any change (MCP list_changed refreshes the ToolSearch index through it). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private dropAliases(tool: AnyTool): void {
    for (const alias of tool.aliases) {
      if (this.aliasToName.get(alias) === tool.name) this.aliasToName.delete(alias);
    }
  }

  private changed(): void {
    if (this.batchDepth > 0) {
      this.pendingChange = true;
      return;
    }
    this.pendingChange = false;
    for (const listener of this.listeners) listener();
  }
}

function safeEnabled(tool: AnyTool): boolean {
  try {
    return tool.isEnabled();
  } catch {
    return false;
  }
}
