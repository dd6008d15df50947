// wield/langchain — wield's tools as LangChain structured tools (@langchain/core 1), and LangChain
// tools as wield tools. `invoke` (with a ToolCall from a chat model, or plain arguments) runs the
// call through wield's whole pipeline on the runtime's one call runner (runtime/scheduler/runner.ts). LangChain has no
// approval flow of its own: an "ask" goes to the runtime's askPermission (no one to ask: the model
// gets the denial text). The ToolMessage carries wield's result as its artifact and status
// "error" for a failed call.
import { ToolMessage } from '@langchain/core/messages';
import {
  DynamicStructuredTool,
  type StructuredToolInterface,
  ToolInputParsingException,
  type ToolRunnableConfig,
  type ToolSchemaBase,
} from '@langchain/core/tools';
import type { ToolCall } from '@langchain/core/messages/tool';
import { defineTool } from '../runtime/tool/define.js';
import type { AnyTool, Tool, ToolCallResult } from '../runtime/tool/types.js';
import type { RuntimeContext } from '../runtime/pipeline/types.js';
import { runnerFor } from '../runtime/scheduler/runner.js';
import { type AdapterOptions, externalSchema, resultText, selectTools, standardSchemaOf } from './pool.js';

export type { AdapterOptions } from './pool.js';

type Invoke = DynamicStructuredTool['invoke'];

/**
 * A wield tool seen by LangChain. LangChain checks arguments against the JSON Schema before the
 * tool runs and throws ToolInputParsingException on a mismatch; wield's pipeline takes over those
 * calls instead, so the model gets wield's repair (e.g. "3" → 3, with a note) or its error text,
 * as a ToolMessage, rather than an exception that ends the agent's step.
 */
class WieldStructuredTool extends DynamicStructuredTool {
  constructor(
    private readonly runtime: RuntimeContext,
    private readonly wieldTool: AnyTool,
  ) {
    super({
      name: wieldTool.name,
      description: wieldTool.description({ cwd: runtime.session.cwd }),
      schema: wieldTool.inputJSONSchema as ToolSchemaBase,
      func: async (input, _runManager, config?: ToolRunnableConfig) => this.run(input, config?.toolCall?.id, config?.signal),
    });
  }

  override invoke: Invoke = async (input, config) => {
    try {
      return await super.invoke(input, config);
    } catch (error) {
      if (!(error instanceof ToolInputParsingException)) throw error;
      const call = isToolCall(input) ? input : undefined;
      return this.run(call ? call.args : input, call?.id ?? config?.toolCall?.id, config?.signal);
    }
  };

  private async run(input: unknown, toolCallId: string | undefined, signal: AbortSignal | undefined): Promise<string | ToolMessage> {
    const id = toolCallId ?? `${this.wieldTool.name}-${Date.now()}`;
    const result = await runnerFor(this.runtime).run({ id, name: this.wieldTool.name, input }, signal);
    return toolCallId ? toolMessage(result, toolCallId) : resultText(result);
  }
}

function isToolCall(input: unknown): input is ToolCall {
  return typeof input === 'object' && input !== null && (input as { type?: unknown }).type === 'tool_call' && 'args' in input;
}

function toolMessage(result: ToolCallResult, toolCallId: string): ToolMessage {
  return new ToolMessage({
    content: resultText(result),
    tool_call_id: toolCallId,
    name: result.toolName,
    status: result.isError ? 'error' : 'success',
    artifact: result,
  });
}

export function toLangChainTools(runtime: RuntimeContext, options: AdapterOptions = {}): StructuredToolInterface[] {
  return selectTools(runtime, options.tools).map((wieldTool) => new WieldStructuredTool(runtime, wieldTool));
}

/**
 * Runs one tool call of a chat model's reply: the tool of that name when the list has it
 * (LangChain's callbacks see the call), otherwise wield's own lookup, so a misspelt name gets a
 * ToolMessage with wield's "did you mean" rather than a crash on a missing tool.
 */
export async function invokeToolCall(
  runtime: RuntimeContext,
  tools: readonly StructuredToolInterface[],
  call: ToolCall,
  config?: ToolRunnableConfig,
): Promise<ToolMessage> {
  const id = call.id ?? `${call.name}-${Date.now()}`;
  const tool = tools.find((candidate) => candidate.name === call.name);
  if (tool) {
    const message: unknown = await tool.invoke({ ...call, id, type: 'tool_call' }, config);
    if (message instanceof ToolMessage) return message;
    return new ToolMessage({ content: String(message), tool_call_id: id, name: call.name });
  }
  const result = await runnerFor(runtime).run({ id, name: call.name, input: call.args }, config?.signal);
  return toolMessage(result, id);
}

/**
 * A LangChain tool as a wield tool, so a pool can mix them: its schema (zod or JSON Schema) is
 * shown to the model and checked by wield. wield's defaults apply (not read-only, runs alone,
 * asks the policy) unless `behaviour` says more.
 */
export async function fromLangChainTool(
  tool: StructuredToolInterface,
  behaviour: Partial<Pick<Tool, 'isReadOnly' | 'isConcurrencySafe' | 'isDestructive'>> = {},
): Promise<AnyTool> {
  const { toJsonSchema } = await import('@langchain/core/utils/json_schema');
  const standard = standardSchemaOf(tool.schema);
  return defineTool({
    name: tool.name,
    description: tool.description,
    inputJSONSchema: externalSchema(toJsonSchema(tool.schema)),
    inputSchema: standard,
    ...behaviour,
    call: async (input, ctx) => tool.invoke(input, { signal: ctx.signal }),
  });
}
