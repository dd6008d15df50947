// The shape of one settings file (zod). Unknown keys are errors, so a typo such as
// `permissions.alow` is reported instead of silently granting nothing; keys brought from Claude
// Code that wield does not use are set aside before this check (carry-over.ts).
import { z } from 'zod';
import { parseRule } from '../permissions/rules.js';
import { matcherError } from '../../runtime/hooks/matcher.js';
import { HOOK_EVENTS } from '../../runtime/hooks/types.js';
import { PERMISSION_MODES } from '../../runtime/pipeline/types.js';
import { sandboxSettingsSchema } from '../sandbox/settings.js';

const ruleString = z.string().superRefine((text, ctx) => {
  const parsed = parseRule(text);
  if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.message });
});

const ruleList = z.array(ruleString);

const commandHook = z.strictObject({
  type: z.literal('command'),
  command: z.string().min(1, 'command must not be empty'),
  /** Seconds (Claude Code's unit). */
  timeout: z.number().positive().optional(),
});

const hookGroup = z.strictObject({
  matcher: z
    .string()
    .optional()
    .superRefine((m, ctx) => {
      const err = m === undefined ? undefined : matcherError(m);
      if (err) ctx.addIssue({ code: 'custom', message: err });
    }),
  hooks: z.array(commandHook),
});

export const permissionModeSchema = z.enum(PERMISSION_MODES);

export const settingsFileSchema = z.strictObject({
  $schema: z.string().optional(),
  permissions: z
    .strictObject({
      allow: ruleList.optional(),
      ask: ruleList.optional(),
      deny: ruleList.optional(),
      defaultMode: permissionModeSchema.optional(),
      additionalDirectories: z.array(z.string().min(1)).optional(),
    })
    .optional(),
  hooks: z.partialRecord(z.enum(HOOK_EVENTS), z.array(hookGroup)).optional(),
  // Each server's fields are validated by the MCP client; here only "an object per name".
  mcpServers: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  sandbox: sandboxSettingsSchema.optional(),
  toolSearch: z.looseObject({ enabled: z.boolean().optional() }).optional(),
  /** false: no RunCode tool (code mode); on by default. */
  codeMode: z.boolean().optional(),
  context: z
    .strictObject({
      /** The model's context window in tokens, for ids wield does not know. */
      window: z.number().int().min(1_000).optional(),
      /** false: no prompt-caching hints (breakpoints, prompt_cache_key). */
      cache: z.boolean().optional(),
      cacheTtl: z.enum(['5m', '1h']).optional(),
      /** Anthropic deferred tools for what ToolSearch loads; 'auto' falls back when the server refuses them. */
      deferredTools: z.enum(['auto', 'on', 'off']).optional(),
      /** Share of the room left one turn's results may take; false: no turn budget. */
      turnBudget: z.union([z.literal(false), z.number().gt(0).max(1)]).optional(),
      /** false: no clearing; an object tunes it (shares of the window; see ClearingPolicy). */
      clearing: z
        .union([
          z.boolean(),
          z.strictObject({
            trigger: z.number().gt(0).max(1).optional(),
            target: z.number().min(0).max(1).optional(),
            keepTurns: z.number().int().min(1).optional(),
            minKeepTurns: z.number().int().min(1).optional(),
            minStep: z.number().min(0).max(1).optional(),
          }),
        ])
        .optional(),
      compaction: z.boolean().optional(),
      /** USD per million tokens by model id. */
      pricing: z
        .record(
          z.string(),
          z.strictObject({
            input: z.number().min(0),
            output: z.number().min(0),
            cacheRead: z.number().min(0).optional(),
            cacheWrite: z.number().min(0).optional(),
          }),
        )
        .optional(),
    })
    .optional(),
  trustedProjects: z.array(z.string()).optional(),
  /** How long a model reply may keep wield waiting before it is asked for again, in seconds. */
  modelStream: z
    .strictObject({
      /** From the request to the reply's first event. */
      firstByteTimeout: z.number().positive().optional(),
      /** Between two events of a reply that has begun. */
      idleTimeout: z.number().positive().optional(),
    })
    .optional(),
  /** The model id when no --model is given. */
  model: z.string().min(1, 'model must not be empty').optional(),
  /** OpenAI strict mode for function tools (--strict-tools); Anthropic ignores it. */
  strictTools: z.boolean().optional(),
  /** Variables set for wield and the commands it runs (as Claude Code's `env`). */
  env: z.record(z.string(), z.string()).optional(),
});

export type SettingsFile = z.infer<typeof settingsFileSchema>;
export type HookGroup = z.infer<typeof hookGroup>;
export type CommandHookSpec = z.infer<typeof commandHook>;
export type HookSettings = NonNullable<SettingsFile['hooks']>;
export type ContextSettings = NonNullable<SettingsFile['context']>;
