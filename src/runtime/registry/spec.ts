// How a tool is shown to a model: the one place a Tool becomes a provider-neutral ToolSpec.
import type { AnyTool } from '../tool/types.js';
import type { ToolSpec } from '../providers/types.js';

export function toolSpec(tool: AnyTool, cwd: string): ToolSpec {
  const spec: ToolSpec = { name: tool.name, description: tool.description({ cwd }), inputSchema: tool.inputJSONSchema };
  if (tool.freeform) spec.freeform = { syntax: tool.freeform.syntax, definition: tool.freeform.definition };
  return spec;
}
