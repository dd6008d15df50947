// The loop's own hooks, as settings define them (real shell scripts, Claude Code's protocol):
// UserPromptSubmit before the prompt is sent, Stop when the model is about to finish.
import { describe, expect, it } from 'vitest';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MAX_STOP_CONTINUATIONS } from '../../../src/runtime/agent/loop.js';
import type { HookHandler } from '../../../src/runtime/hooks/types.js';
import { hooksFromSettings } from '../../../src/coding/hooks/settings.js';
import type { HookSettings } from '../../../src/coding/settings/schema.js';
import { callTools, expectPaired, harness, prompt, reply, runScripted, type ScriptedTurn } from './scripted.js';

/** Writes an executable hook script into the harness folder and returns its path. */
function script(dir: string, name: string, body: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

async function run(turns: ScriptedTurn[], hooks: (dir: string) => HookSettings) {
  const h = harness();
  h.rt.hooks = hooksFromSettings(hooks(h.cwd), { cwd: h.cwd, log: () => undefined });
  const { result, provider, events } = await runScripted(turns, { h, model: 'm', messages: [prompt('fix the bug')] });
  return { result, provider, events, cwd: h.cwd };
}

const lastUserText = (messages: readonly { role: string; content: { type: string; text?: string }[] }[]) =>
  messages
    .filter((m) => m.role === 'user')
    .at(-1)
    ?.content.map((p) => p.text ?? '')
    .join('\n') ?? '';

describe('UserPromptSubmit hooks', () => {
  it('exit 2 stops the prompt before any request, with the reason, and drops it from the history', async () => {
    const { result, provider, events } = await run([reply('never')], (dir) => ({
      UserPromptSubmit: [
        {
          hooks: [
            {
              type: 'command',
              command: script(dir, 'block.sh', 'cat > "$WIELD_PROJECT_DIR/input.json"; echo "no prompts about bugs" >&2; exit 2'),
            },
          ],
        },
      ],
    }));
    expect(provider.requests).toHaveLength(0);
    expect(result.stopReason).toBe('blocked');
    expect(result.error).toContain('no prompts about bugs');
    expect(result.messages).toEqual([]);
    expect(events.some((e) => e.type === 'user_message')).toBe(false);
    expect(events.find((e) => e.type === 'error')).toMatchObject({ message: expect.stringContaining('no prompts about bugs') });
  });

  it('passes the prompt on stdin and adds plain stdout and JSON additionalContext to it', async () => {
    const { result, provider, events, cwd } = await run([reply('ok')], (dir) => ({
      UserPromptSubmit: [
        {
          hooks: [
            { type: 'command', command: script(dir, 'plain.sh', 'cat > "$WIELD_PROJECT_DIR/input.json"; echo "branch: main"') },
            {
              type: 'command',
              command: script(
                dir,
                'json.sh',
                `echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"tests: 3 failing"}}'`,
              ),
            },
          ],
        },
      ],
    }));
    expect(result.stopReason).toBe('end_turn');
    expect(JSON.parse(readFileSync(path.join(cwd, 'input.json'), 'utf8'))).toMatchObject({
      hook_event_name: 'UserPromptSubmit',
      prompt: 'fix the bug',
      cwd,
    });
    const sent = lastUserText(provider.requests[0].messages);
    expect(sent).toContain('fix the bug');
    expect(sent).toContain('branch: main');
    expect(sent).toContain('tests: 3 failing');
    // The prompt as sent is what the session records.
    expect(events.find((e) => e.type === 'user_message')).toMatchObject({ origin: 'prompt', message: provider.requests[0].messages[0] });
  });
});

describe('hooks that fail to run', () => {
  it('a UserPromptSubmit or Stop hook that throws lets the run go on and is reported as a loop_hook event', async () => {
    const h = harness();
    const crash = (event: 'UserPromptSubmit' | 'Stop'): HookHandler => ({
      event,
      name: `${event}-crash`,
      run: async () => {
        throw new Error(`${event} boom`);
      },
    });
    h.rt.hooks = [crash('UserPromptSubmit'), crash('Stop')];
    const { result, provider, events } = await runScripted([reply('ok')], { h, model: 'm', messages: [prompt('fix the bug')] });
    expect(result.stopReason).toBe('end_turn');
    expect(provider.requests).toHaveLength(1);
    const reported = events.flatMap((e) => (e.type === 'loop_hook' ? [e] : []));
    expect(reported.map((e) => [e.event, e.outcome])).toEqual([
      ['UserPromptSubmit', 'failed'],
      ['Stop', 'failed'],
    ]);
    expect(reported[0].errors).toEqual(['hook UserPromptSubmit-crash failed: UserPromptSubmit boom']);
  });
});

describe('Stop hooks', () => {
  it('a block with a reason makes the model continue, with the reason as a user message', async () => {
    const { result, provider, events, cwd } = await run(
      [reply('Done.'), callTools([{ id: 't1', name: 'Note', input: '{"text":"tests"}' }]), reply('Tests run, done.')],
      (dir) => ({
        Stop: [
          {
            hooks: [
              {
                type: 'command',
                // Blocks once (remembered in a file), then lets the turn end.
                command: script(
                  dir,
                  'stop.sh',
                  `cat >> "$WIELD_PROJECT_DIR/stop-inputs.jsonl"; echo >> "$WIELD_PROJECT_DIR/stop-inputs.jsonl"
[ -f "$WIELD_PROJECT_DIR/stopped" ] && exit 0
touch "$WIELD_PROJECT_DIR/stopped"
echo '{"decision":"block","reason":"run the tests first"}'`,
                ),
              },
            ],
          },
        ],
      }),
    );
    expect(result.stopReason).toBe('end_turn');
    expect(result.answer).toBe('Tests run, done.');
    expect(provider.requests).toHaveLength(3);
    expect(lastUserText(provider.requests[1].messages)).toContain('run the tests first');
    expectPaired(result.messages);
    expect(events.filter((e) => e.type === 'user_message').map((e) => (e as { origin: string }).origin)).toEqual(['prompt', 'stop_hook']);
    const inputs = readFileSync(path.join(cwd, 'stop-inputs.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(inputs.map((input) => [input.hook_event_name, input.stop_hook_active])).toEqual([
      ['Stop', false],
      ['Stop', true],
    ]);
  });

  it(`stops forcing continuations after ${MAX_STOP_CONTINUATIONS} per prompt`, async () => {
    const { result, provider } = await run([], (dir) => ({
      Stop: [{ hooks: [{ type: 'command', command: script(dir, 'always.sh', 'echo "keep going" >&2; exit 2') }] }],
    }));
    expect(result.stopReason).toBe('end_turn');
    expect(provider.requests).toHaveLength(1 + MAX_STOP_CONTINUATIONS);
    expect(result.messages.filter((m) => m.role === 'user')).toHaveLength(1 + MAX_STOP_CONTINUATIONS);
  });

  it('continue: false stops the agent even when a block asks it to go on', async () => {
    const { result, provider } = await run([], (dir) => ({
      Stop: [
        {
          hooks: [
            {
              type: 'command',
              command: script(
                dir,
                'halt.sh',
                `echo '{"continue": false, "stopReason": "budget spent", "decision": "block", "reason": "go on"}'`,
              ),
            },
          ],
        },
      ],
    }));
    expect(result.stopReason).toBe('end_turn');
    expect(provider.requests).toHaveLength(1);
  });
});
