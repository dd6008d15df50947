// wield/ai-sdk — wield's tools as Vercel AI SDK tools (ai 6), and AI SDK tools as wield tools.
// Every call runs through the whole pipeline (repair, validation, hooks, permission, budget)
// on the runtime's one call runner (runtime/scheduler/runner.ts); the SDK only carries the call and its result.
import { asSchema, InvalidToolInputError, jsonSchema, NoSuchToolError, tool as aiTool } from 'ai';
import type { ModelMessage, Tool as AISDKTool, ToolCallRepairFunction, ToolExecutionOptions, ToolSet } from 'ai';
import { defineTool } from '../runtime/tool/define.js';
import type { AnyTool, Tool, ToolCallResult } from '../runtime/tool/types.js';
import { lookupTool } from '../runtime/pipeline/lookup.js';
import type { RuntimeContext } from '../runtime/pipeline/types.js';
import { runnerFor } from '../runtime/scheduler/runner.js';
import { type AdapterOptions, externalSchema, resultText, selectTools, standardSchemaOf, wouldAsk } from './pool.js';

export type { AdapterOptions } from './pool.js';

export interface AISDKToolsOptions extends AdapterOptions {
  /**
   * Where an "ask" goes. `sdk` (default): the tool's `needsApproval` pauses the run with a
   * tool-approval-request, as any AI SDK tool; the call runs once it is approved, and a refusal is
   * the SDK's execution-denied result. `runtime`: the runtime's askPermission answers (no one to
   * ask: the model gets the denial text).
   */
  approvals?: 'sdk' | 'runtime';
}

type ModelOutput = Awaited<ReturnType<NonNullable<AISDKTool['toModelOutput']>>>;

/** Arguments the SDK could not parse as JSON, carried to wield's own repair (see wieldToolCallRepair). */
const RAW_ARGUMENTS = '__wield_raw_arguments';

/** The SDK only passes the arguments on; wield's pipeline parses, repairs and validates them. */
const passThrough = { validate: (value: unknown) => ({ success: true as const, value }) };

export function toAISDKTools(runtime: RuntimeContext, options: AISDKToolsOptions = {}): ToolSet {
  const tools: ToolSet = {};
  for (const wieldTool of selectTools(runtime, options.tools)) {
    const name = wieldTool.name;
    tools[name] = aiTool<unknown, ToolCallResult>({
      description: wieldTool.description({ cwd: runtime.session.cwd }),
      inputSchema: jsonSchema<unknown>(wieldTool.inputJSONSchema as Parameters<typeof jsonSchema>[0], passThrough),
      needsApproval:
        options.approvals === 'runtime'
          ? undefined
          : (input, { toolCallId }) =>
              wouldAsk(runtime, { id: toolCallId, name, input: rawArguments(input) }, new AbortController().signal),
      execute: (input, { toolCallId, abortSignal, messages }: ToolExecutionOptions) =>
        runnerFor(runtime).run({ id: toolCallId, name, input: rawArguments(input) }, abortSignal, {
          approved: options.approvals !== 'runtime' && isApproved(messages, toolCallId),
        }),
      toModelOutput: ({ output }) => modelOutput(output),
    });
  }
  return tools;
}

/**
 * For `experimental_repairToolCall`: arguments that are not valid JSON reach wield's pipeline,
 * which repairs what it can (and says so) or tells the model what to send instead, as in wield's
 * own loop. A tool name the model got wrong goes through wield's lookup: an alias or a different
 * case is mapped to the tool; any other name gets wield's "did you mean" text (the SDK reports a
 * repair function's error to the model as a tool error, prefixed "Error repairing tool call").
 */
export function wieldToolCallRepair(runtime: RuntimeContext): ToolCallRepairFunction<ToolSet> {
  return async ({ toolCall, tools, error }) => {
    if (NoSuchToolError.isInstance(error)) {
      const found = await lookupTool(toolCall.toolName, runtime, new AbortController().signal);
      if (found.ok && tools[found.value.name]) return { ...toolCall, toolName: found.value.name };
      throw new Error(found.ok ? `${found.value.name} is not offered in this run. ${error.message}` : resultText(found.error));
    }
    if (InvalidToolInputError.isInstance(error)) return { ...toolCall, input: JSON.stringify({ [RAW_ARGUMENTS]: toolCall.input }) };
    return null;
  };
}

function rawArguments(input: unknown): unknown {
  if (typeof input === 'object' && input !== null && RAW_ARGUMENTS in input) return (input as Record<string, unknown>)[RAW_ARGUMENTS];
  return input;
}

/** True when the history holds an approved tool-approval-response for this call (the SDK runs it only then). */
function isApproved(messages: readonly ModelMessage[], toolCallId: string): boolean {
  const approvalIds = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content)
      if (part.type === 'tool-approval-request' && part.toolCallId === toolCallId) approvalIds.add(part.approvalId);
  }
  return messages.some(
    (message) =>
      message.role === 'tool' &&
      message.content.some((part) => part.type === 'tool-approval-response' && part.approved && approvalIds.has(part.approvalId)),
  );
}

function modelOutput(result: ToolCallResult): ModelOutput {
  if (result.isError) return { type: 'error-text', value: resultText(result) };
  if (result.content.every((block) => block.type === 'text')) return { type: 'text', value: resultText(result) };
  return {
    type: 'content',
    value: result.content.map((block) =>
      block.type === 'text'
        ? { type: 'text' as const, text: block.text }
        : { type: 'image-data' as const, data: block.data, mediaType: block.mediaType },
    ),
  };
}

/**
 * An AI SDK tool as a wield tool, so a pool can mix them: its JSON Schema is shown to the model
 * and checked by wield, its zod (Standard Schema) input schema, when it has one, validates too.
 * It gets wield's defaults (not read-only, runs alone, asks the policy); give `behaviour` to say
 * more. A streaming execute's last value is the result.
 */
export async function fromAISDKTool(
  name: string,
  tool: AISDKTool,
  behaviour: Partial<Pick<Tool, 'isReadOnly' | 'isConcurrencySafe' | 'isDestructive'>> = {},
): Promise<AnyTool> {
  const execute = tool.execute;
  if (!execute) throw new Error(`fromAISDKTool(${name}): the tool has no execute function, so wield cannot run it`);
  return defineTool({
    name,
    description: tool.description ?? name,
    inputJSONSchema: externalSchema(await asSchema(tool.inputSchema).jsonSchema),
    inputSchema: standardSchemaOf(tool.inputSchema),
    ...behaviour,
    call: async (input, ctx) => {
      const output = execute(input, { toolCallId: ctx.toolUseId, messages: [], abortSignal: ctx.signal });
      return isAsyncIterable(output) ? lastOf(output) : output;
    },
  });
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

async function lastOf(values: AsyncIterable<unknown>): Promise<unknown> {
  let last: unknown;
  for await (const value of values) last = value;
  return last;
}
