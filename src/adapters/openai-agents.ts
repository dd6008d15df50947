// wield/openai-agents — wield's tools as OpenAI Agents SDK function tools (@openai/agents 0.14),
// and Agents SDK function tools as wield tools. The tools are made with the SDK's own tool(),
// non-strict, so the SDK only parses the JSON (arguments that are not JSON at all it refuses
// itself, with its own message); wield's pipeline repairs and validates the rest and runs the call
// on the runtime's one call runner (runtime/scheduler/runner.ts). It always returns text: a denial or a bad input is a
// result the model reads, never an exception that would end the run.
import { tool as agentsTool, type FunctionTool, type ToolErrorFormatter, type ToolNotFoundBehavior } from '@openai/agents';
import { defineTool } from '../runtime/tool/define.js';
import type { AnyTool, Tool } from '../runtime/tool/types.js';
import type { RuntimeContext } from '../runtime/pipeline/types.js';
import { lookupTool } from '../runtime/pipeline/lookup.js';
import { runnerFor } from '../runtime/scheduler/runner.js';
import { type AdapterOptions, externalSchema, isToolEnabled, resultText, selectTools, wouldAsk } from './pool.js';

export type { AdapterOptions } from './pool.js';

export interface OpenAIAgentsToolsOptions extends AdapterOptions {
  /**
   * Where an "ask" goes. `sdk` (default): `needsApproval` makes the run stop with an interruption
   * (`result.interruptions`); `state.approve(item)` runs the call, `state.reject(item)` gives the
   * model the SDK's rejection. `runtime`: the runtime's askPermission answers (no one to ask: the
   * model gets the denial text).
   */
  approvals?: 'sdk' | 'runtime';
}

/** The SDK's non-strict JSON Schema parameters (its type is not exported by name). */
type NonStrictParameters = Extract<FunctionTool['parameters'], { additionalProperties: true }>;
type AgentsTool = FunctionTool<unknown, NonStrictParameters, string>;

export function toOpenAIAgentsTools(runtime: RuntimeContext, options: OpenAIAgentsToolsOptions = {}): AgentsTool[] {
  const viaSDK = options.approvals !== 'runtime';
  return selectTools(runtime, options.tools).map((wieldTool) => {
    const name = wieldTool.name;
    return agentsTool({
      name,
      description: wieldTool.description({ cwd: runtime.session.cwd }),
      // Not strict: wield's schemas have optional fields, and wield validates every call itself.
      parameters: wieldTool.inputJSONSchema as NonStrictParameters,
      strict: false,
      // A static `false` in runtime mode: the SDK then never forces an approval of its own.
      needsApproval: viaSDK
        ? (_context, input, callId) => wouldAsk(runtime, { id: callId ?? name, name, input }, new AbortController().signal)
        : false,
      isEnabled: () => isToolEnabled(wieldTool),
      execute: async (input, context, details) => {
        const id = details?.toolCall?.callId ?? `${name}-${Date.now()}`;
        const approved = viaSDK && context?.isToolApproved({ toolName: name, callId: id }) === true;
        return resultText(await runnerFor(runtime).run({ id, name, input }, details?.signal, { approved }));
      },
    });
  });
}

/**
 * Options for the SDK's `run()` (or a Runner's config): a tool name the model got wrong is a result
 * the model reads — wield's "did you mean" — instead of a ModelBehaviorError that ends the run.
 */
export function wieldRunOptions(runtime: RuntimeContext): {
  toolNotFoundBehavior: ToolNotFoundBehavior;
  toolErrorFormatter: ToolErrorFormatter;
} {
  return {
    toolNotFoundBehavior: 'return_error_to_model',
    toolErrorFormatter: async ({ kind, toolName }) => {
      if (kind !== 'tool_not_found') return undefined;
      const found = await lookupTool(toolName, runtime, new AbortController().signal);
      // A name wield resolves (another case, an alias) still has to be sent as the SDK lists it.
      return found.ok
        ? `No tool named "${toolName}". Did you mean "${found.value.name}"? Call it by that exact name.`
        : resultText(found.error);
    },
  };
}

/**
 * An Agents SDK function tool as a wield tool, so a pool can mix them. Its JSON Schema is shown
 * to the model and checked by wield; the tool is invoked with the arguments as JSON text, as the
 * SDK does. wield's defaults apply (not read-only, runs alone, asks the policy) unless
 * `behaviour` says more.
 */
export function fromOpenAIAgentsTool(
  tool: FunctionTool<unknown, never, unknown>,
  behaviour: Partial<Pick<Tool, 'isReadOnly' | 'isConcurrencySafe' | 'isDestructive'>> = {},
): AnyTool {
  return defineTool({
    name: tool.name,
    description: tool.description,
    inputJSONSchema: externalSchema(tool.parameters),
    ...behaviour,
    // The SDK's invoke needs a RunContext; outside a run an empty one stands in (no approvals, no user context).
    call: async (input, ctx) => {
      const { RunContext } = await import('@openai/agents');
      return tool.invoke(new RunContext(), JSON.stringify(input), { signal: ctx.signal });
    },
  });
}
