// What every adapter shares besides the runner: which tools to offer, a dry run of the permission
// decision for frameworks with their own approval flow, and a result as plain text.
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { AnyTool, JSONSchema, ToolCallResult } from '../runtime/tool/types.js';
import type { RuntimeContext, ToolCallRequest } from '../runtime/pipeline/types.js';
import { lookupTool } from '../runtime/pipeline/lookup.js';
import { checkInput, makeContext } from '../runtime/pipeline/prepare.js';

export interface AdapterOptions {
  /** Tool names (or aliases) to offer; default: every enabled tool of the runtime. */
  tools?: readonly string[];
}

/** The wield tools an adapter offers. An unknown name is a programming error: it throws, naming the known ones. */
export function selectTools(runtime: RuntimeContext, names: readonly string[] | undefined): AnyTool[] {
  if (names === undefined) {
    return runtime
      .toolNames()
      .map((name) => runtime.resolveTool(name))
      .filter((tool): tool is AnyTool => tool !== undefined && isToolEnabled(tool));
  }
  return names.map((name) => {
    const tool = runtime.resolveTool(name);
    if (!tool) throw new Error(`wield: no tool named "${name}" in this runtime; it has ${runtime.toolNames().join(', ') || 'no tools'}.`);
    return tool;
  });
}

/** A tool's isEnabled(), false when it throws. */
export function isToolEnabled(tool: AnyTool): boolean {
  try {
    return tool.isEnabled();
  } catch {
    return false;
  }
}

/**
 * Would the runtime ask a person about this call? The tool's check and the policy, on the parsed
 * and validated input, without hooks or side effects. A framework with an approval flow uses it to
 * decide whether to pause for approval; the real decision is made again when the call runs (so an
 * input the model damaged, or a deny, is reported by the pipeline with its own text).
 */
export async function wouldAsk(runtime: RuntimeContext, request: ToolCallRequest, signal: AbortSignal): Promise<boolean> {
  const found = await lookupTool(request.name, runtime, signal);
  if (!found.ok) return false;
  const tool = found.value;
  const ctx = makeContext({ ...request, name: tool.name }, runtime, signal);
  try {
    const checked = await checkInput(tool, request.input, ctx, []);
    if (!checked.ok) return false;
    const toolCheck = await tool.checkPermissions(checked.value, ctx);
    const input = toolCheck.updatedInput ?? checked.value;
    const decision = await runtime.policy.decide({ tool, input, toolCheck, session: runtime.session });
    return decision.behavior === 'ask';
  } catch {
    return false; // the call itself will report the failing check
  }
}

/** The result's text blocks joined; an image becomes a short placeholder for text-only frameworks. */
export function resultText(result: Pick<ToolCallResult, 'content'>): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : `[image ${block.mediaType}]`)).join('\n');
}

/** A framework tool's JSON Schema as wield holds it: generators declare draft-07, whose keywords tools use are the same as 2020-12's. */
export function externalSchema(schema: unknown): JSONSchema {
  const copy = { ...(schema as JSONSchema) };
  delete copy.$schema;
  return copy;
}

/** The framework tool's own schema object when it is a Standard Schema (zod), so wield validates with it too. */
export function standardSchemaOf(schema: unknown): StandardSchemaV1<unknown, Record<string, unknown>> | undefined {
  return typeof schema === 'object' && schema !== null && '~standard' in schema
    ? (schema as StandardSchemaV1<unknown, Record<string, unknown>>)
    : undefined;
}
