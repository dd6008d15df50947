// A server's tools as its connection keeps them: the last listing (usable tools, the rejected
// ones, each tool's task support and schema), listed again on tools/list_changed one pass at a time.
import type { Client } from '@modelcontextprotocol/client';
import { listServerTools, type McpToolInfo } from './tools.js';
import { messageOf } from '../util/message.js';

export interface ServerToolsOptions {
  /** Per-page timeout of tools/list. */
  timeout: number;
  log: (line: string) => void;
  /** Called with the usable tools after every listing that is published. */
  onTools: (tools: McpToolInfo[]) => void;
}

export class ServerTools {
  count = 0;
  errors: string[] = [];
  /** A refresh under way: a call's result waits for it, so the next request has the new list. */
  refreshing?: Promise<void>;
  private refreshAgain = false;
  /** Tool name → the tool, from the last listing. */
  private listed = new Map<string, McpToolInfo>();

  constructor(private readonly options: ServerToolsOptions) {}

  taskSupportOf(tool: string): string | undefined {
    return this.listed.get(tool)?.taskSupport;
  }

  /**
   * callTool's `toolDefinition`: the listed schema, from which the SDK mirrors x-mcp-header
   * parameters into headers (2026-07-28); wield lists tools itself, so the SDK's own tool cache
   * is empty. Only the input schema: an output schema would start checks wield does not make.
   */
  headerSource(tool: string): { toolDefinition?: { name: string; inputSchema: McpToolInfo['inputSchema'] & { type: 'object' } } } {
    const inputSchema = this.listed.get(tool)?.inputSchema;
    return inputSchema ? { toolDefinition: { name: tool, inputSchema: { ...inputSchema, type: 'object' } } } : {};
  }

  async list(client: Client, signal?: AbortSignal): Promise<McpToolInfo[]> {
    const checked = await listServerTools(client, this.options.timeout, signal);
    this.listed = new Map(checked.tools.map((tool) => [tool.name, tool]));
    this.errors = checked.errors;
    for (const line of checked.errors) this.options.log(`skipped ${line}`);
    return checked.tools;
  }

  publish(tools: McpToolInfo[]): void {
    this.count = tools.length;
    this.options.onTools(tools);
  }

  /**
   * tools/list_changed: list again and publish while `current()` (the client is still the
   * connection's); notifications that arrive meanwhile cause one more pass.
   */
  async refresh(client: Client, current: () => boolean): Promise<void> {
    if (this.refreshing) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.refreshAgain = false;
        try {
          const tools = await this.list(client);
          if (current()) this.publish(tools);
        } catch (error) {
          this.options.log(`refreshing tools failed: ${messageOf(error)}`);
        }
      } while (this.refreshAgain && current());
    })().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }
}
