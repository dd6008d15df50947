// The loop's own hook events: UserPromptSubmit before a prompt is sent, Stop when the model is
// about to finish. (Tool hooks run in the pipeline.) What they did, failures included, is an event.
import type { MergedHookOutcome } from '../hooks/run.js';
import { runHooks } from '../hooks/run.js';
import type { HookHandler, HookInput } from '../hooks/types.js';
import type { Message } from '../providers/types.js';
import type { AgentEvent, UserMessage } from './events.js';

export interface LoopHooks {
  hooks: readonly HookHandler[] | undefined;
  signal: AbortSignal;
  emit: (event: AgentEvent) => void;
}

type LoopHookEvent = Extract<AgentEvent, { type: 'loop_hook' }>;

/** Pure: the event for what the loop's hooks did, or undefined when none did anything. */
export function loopHookEvent(event: LoopHookEvent['event'], merged: MergedHookOutcome): LoopHookEvent | undefined {
  const outcome: LoopHookEvent['outcome'] | undefined = merged.halt
    ? 'halt'
    : merged.block
      ? 'block'
      : merged.additionalContext
        ? 'context'
        : merged.errors.length > 0
          ? 'failed'
          : undefined;
  if (outcome === undefined) return undefined;
  const reason = merged.halt?.reason ?? merged.block?.reason;
  return { type: 'loop_hook', event, outcome, ...(reason ? { reason } : {}), errors: merged.errors };
}

async function runLoopHooks(loop: LoopHooks, input: HookInput): Promise<MergedHookOutcome> {
  const merged = await runHooks(loop.hooks, input, loop.signal);
  const event = loopHookEvent(input.hook_event_name as LoopHookEvent['event'], merged);
  if (event) loop.emit(event);
  return merged;
}

const hasHooksFor = (loop: LoopHooks, event: LoopHookEvent['event']): boolean => loop.hooks?.some((hook) => hook.event === event) === true;

export interface SubmittedPrompt {
  messages: readonly Message[];
  /** The new prompt as sent (with hook context), to record; absent when the history ends otherwise. */
  prompt?: UserMessage;
  /** A UserPromptSubmit hook's reason for stopping the prompt. */
  blocked?: string;
}

/**
 * Runs UserPromptSubmit hooks on the prompt that ends the history: a block drops the prompt
 * (it is never sent nor kept), added context travels with it.
 */
export async function submitPrompt(loop: LoopHooks, messages: readonly Message[], input: HookInput): Promise<SubmittedPrompt> {
  const last = messages.at(-1);
  if (last?.role !== 'user') return { messages };
  const text = last.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
  if (text === '' || !hasHooksFor(loop, 'UserPromptSubmit')) return { messages, prompt: last };
  const outcome = await runLoopHooks(loop, { ...input, prompt: text });
  if (outcome.block) return { messages: messages.slice(0, -1), blocked: outcome.block.reason };
  const prompt: UserMessage = outcome.additionalContext
    ? {
        role: 'user',
        content: [...last.content, { type: 'text', text: `Context added by a UserPromptSubmit hook:\n${outcome.additionalContext}` }],
      }
    : last;
  return { messages: [...messages.slice(0, -1), prompt], prompt };
}

/** What a blocking Stop hook wants the model to do next, or undefined to let the turn end. */
export async function stopFeedback(loop: LoopHooks, input: HookInput): Promise<string | undefined> {
  if (!hasHooksFor(loop, 'Stop')) return undefined;
  const outcome = await runLoopHooks(loop, input);
  // `continue: false` (halt) means stop now, whatever a block asks.
  return outcome.block && !outcome.halt ? `A Stop hook asked you to continue: ${outcome.block.reason}` : undefined;
}
