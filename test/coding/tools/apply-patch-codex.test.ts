// A scripted Codex-style session through the real agent loop: the model reads with the shell
// (`cat`, `sed -n`), as Codex-trained models do, then patches with apply_patch — no Read call.
// The patch lands because its context matches the file; a patch whose context is stale does not.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPatchTool } from '../../../src/coding/tools/apply-patch.js';
import { bashTool } from '../../../src/coding/tools/bash.js';
import { runAgent } from '../../../src/runtime/agent/loop.js';
import { callTools, harness, prompt, reply, scriptedProvider } from '../../runtime/agent/scripted.js';

const SOURCE = 'def greet(name):\n    return "hello " + name\n\nprint(greet("world"))\n';

function toolResults(requests: ReturnType<typeof scriptedProvider>['requests'], index: number): string[] {
  const last = requests[index].messages.at(-1);
  if (!last || typeof last.content === 'string') return [];
  return last.content.flatMap((block) =>
    block.type === 'tool_result' ? [block.content.map((part) => (part.type === 'text' ? part.text : '')).join('')] : [],
  );
}

describe('apply_patch in a Codex-style session', () => {
  it('reads with cat and sed -n in the shell, patches without a Read, and the file changes', async () => {
    const h = harness([bashTool(), applyPatchTool()]);
    fs.writeFileSync(path.join(h.cwd, 'hello.py'), SOURCE);
    const patch = [
      '*** Begin Patch',
      '*** Update File: hello.py',
      '@@ def greet(name):',
      '-    return "hello " + name',
      '+    return f"hello, {name}!"',
      '*** End Patch',
      '',
    ].join('\n');
    const provider = scriptedProvider([
      callTools([{ id: 'c1', name: 'Bash', input: JSON.stringify({ command: 'cat hello.py' }) }]),
      callTools([{ id: 'c2', name: 'Bash', input: JSON.stringify({ command: 'sed -n 1,2p hello.py' }) }]),
      callTools([{ id: 'c3', name: 'apply_patch', input: JSON.stringify({ input: patch }) }]),
      // The same hunk again: the file no longer has that line, so nothing is changed.
      callTools([{ id: 'c4', name: 'apply_patch', input: JSON.stringify({ input: patch }) }]),
      reply('done'),
    ]);
    await runAgent({ provider, model: 'scripted', messages: [prompt('fix the greeting')], rt: h.rt, signal: new AbortController().signal });
    expect(toolResults(provider.requests, 1).join('')).toContain('return "hello " + name');
    const [applied] = toolResults(provider.requests, 3);
    expect(applied).toContain('Success. Updated the following files:\nM hello.py');
    const [stale] = toolResults(provider.requests, 4);
    expect(stale).toMatch(/hello\.py/);
    expect(stale).toContain('Nothing was changed');
    expect(fs.readFileSync(path.join(h.cwd, 'hello.py'), 'utf8')).toBe(SOURCE.replace('"hello " + name', 'f"hello, {name}!"'));
  });
});
