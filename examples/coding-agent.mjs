// The coding agent as a library: createCodingAgent() assembles what the `wield` CLI runs — the
// built-in tools, the permission engine and settings, the sandbox, MCP servers from settings,
// AGENTS.md instructions and context management — with no terminal. A person's answers come
// through askPermission; what happens, through onEvent.
// Run: npm run build && node examples/coding-agent.mjs
// The model is scripted so the example runs offline; use createProvider() from 'wield' instead.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCodingAgent } from 'wield/coding';

const workspace = mkdtempSync(path.join(os.tmpdir(), 'wield-example-'));
writeFileSync(path.join(workspace, 'AGENTS.md'), 'Keep the changelog short.\n');
writeFileSync(path.join(workspace, 'CHANGELOG.md'), '# Changelog\n');

/** A scripted stand-in for a model: one reply per request, tool calls or a closing text. */
function scriptedProvider(replies) {
  const requests = [];
  return {
    name: 'anthropic',
    requests,
    async *stream(request) {
      requests.push(request);
      const next = replies.shift() ?? 'done';
      if (typeof next === 'string') {
        yield { type: 'text_delta', text: next };
        yield { type: 'message_end', stopReason: 'end_turn', usage: { inputTokens: 10, outputTokens: 5 } };
        return;
      }
      for (const [index, call] of next.entries()) {
        const input = JSON.stringify(call.input);
        yield { type: 'tool_call_start', index, id: call.id, name: call.name };
        yield { type: 'tool_call_end', index, id: call.id, name: call.name, input };
      }
      yield { type: 'message_end', stopReason: 'tool_use', usage: { inputTokens: 10, outputTokens: 5 } };
    },
  };
}

const provider = scriptedProvider([
  [{ id: 'r1', name: 'Read', input: { file_path: 'CHANGELOG.md' } }],
  [
    {
      id: 'e1',
      name: 'Edit',
      input: { file_path: 'CHANGELOG.md', old_string: '# Changelog\n', new_string: '# Changelog\n\n- Faster start\n' },
    },
    // The default mode asks before a command that changes files; this person says no.
    { id: 'b1', name: 'Bash', input: { command: 'rm -rf build' } },
  ],
  'Added the entry.',
]);

const agent = await createCodingAgent({
  cwd: workspace,
  home: workspace, // settings and `~` for this example: an empty home
  env: { ...process.env, WIELD_HOME: workspace },
  provider,
  model: 'scripted',
  askPermission: async ({ tool, input }) => {
    console.log(`asked: ${tool.name} ${JSON.stringify(input)}`);
    return tool.name === 'Edit' ? { behavior: 'allow' } : { behavior: 'deny', message: 'not now' };
  },
});
console.log(
  `tools: ${agent.runtime.rt
    .toolNames()
    .filter((name) => ['Read', 'Edit', 'Bash', 'Grep'].includes(name))
    .join(', ')}`,
);
console.log(`instructions: ${agent.instructions.files.map((file) => path.basename(file.path)).join(', ')}`);
const result = await agent.send('Add "Faster start" to the changelog', new AbortController().signal, (event) => {
  if (event.type === 'tool_end')
    console.log(`${event.toolUseId} ${event.result.isError ? 'error' : 'ok'}: ${event.result.content[0].text.split('\n')[0]}`);
});
console.log(`system prompt has AGENTS.md: ${provider.requests[0].system.includes('Keep the changelog short.')}`);
console.log(`CHANGELOG.md: ${JSON.stringify(readFileSync(path.join(workspace, 'CHANGELOG.md'), 'utf8'))}`);
console.log(`answer: ${result.answer} (${result.turns} model requests, ${result.toolCalls} tool calls)`);
await agent.close();
rmSync(workspace, { recursive: true, force: true });
