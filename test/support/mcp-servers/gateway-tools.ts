// A small pool and policies for the gateway tests (used in-process and by gateway-entry.ts).
import { z } from 'zod';
import type { PermissionPolicy } from '../../../src/runtime/pipeline/types.js';
import { ToolRegistry } from '../../../src/runtime/registry/registry.js';
import { defineTool } from '../../../src/runtime/tool/define.js';

export function gatewayRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  registry.register(
    defineTool({
      name: 'Echo',
      source: 'builtin',
      description: 'Returns the text it is given',
      inputSchema: z.object({ text: z.string() }),
      isReadOnly: () => true,
      isConcurrencySafe: () => true,
      call: async ({ text }, ctx) => {
        ctx.onProgress({ message: 'echoing', progress: 1, total: 1 });
        // The SDK client drops progress it reads in the same chunk as the result (it handles
        // notifications a microtask later than responses), so the answer comes a little later.
        await new Promise((resolve) => setTimeout(resolve, 100));
        return text;
      },
    }),
  );
  registry.register(
    defineTool({
      name: 'Shout',
      source: 'builtin',
      description: 'Returns the text in capitals, very long if asked',
      inputSchema: z.object({ text: z.string(), repeat: z.number().int().optional() }),
      isDestructive: () => true,
      maxResultChars: 2_000,
      call: async ({ text, repeat }) => text.toUpperCase().repeat(repeat ?? 1),
    }),
  );
  return registry;
}

/** Echo is allowed; Shout needs the user's approval. */
export const askForShout: PermissionPolicy = {
  decide: ({ tool }) =>
    tool.name === 'Shout' ? { behavior: 'ask', reason: 'Shout is not allowed by any rule' } : { behavior: 'allow', reason: 'read-only' },
};
