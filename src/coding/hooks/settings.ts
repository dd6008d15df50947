// Hooks written in settings files (`hooks.<Event>[].{matcher, hooks[]}`), turned into the
// HookHandler objects the pipeline runs. Matching by tool name is done by the pipeline (run.ts).
import type { HookEventName, HookHandler } from '../../runtime/hooks/types.js';
import type { HookSettings } from '../settings/schema.js';
import { runCommandHook, type CommandHookOptions } from './command.js';

export function hooksFromSettings(hooks: HookSettings, opts: CommandHookOptions): HookHandler[] {
  const handlers: HookHandler[] = [];
  for (const [event, groups] of Object.entries(hooks) as [HookEventName, HookSettings[HookEventName]][]) {
    for (const group of groups ?? []) {
      for (const spec of group.hooks) {
        handlers.push({
          event,
          matcher: group.matcher,
          name: spec.command,
          run: (input, signal) => runCommandHook(spec, input, signal, opts),
        });
      }
    }
  }
  return handlers;
}
