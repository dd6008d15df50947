// wield's tools in the Vercel AI SDK: generateText calls them, wield's pipeline runs them.
// Run: npm run build && node examples/ai-sdk.mjs
// The model here is the AI SDK's own scripted test model, so the example runs offline; put your
// provider's model in its place (e.g. `openai('gpt-4.1')` from @ai-sdk/openai).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { createRuntime, createSession, ToolRegistry } from 'wield';
import { toAISDKTools, wieldToolCallRepair } from 'wield/ai-sdk';
import { createPolicy, loadSettings, readTool, writeTool } from 'wield/coding';

const workspace = mkdtempSync(path.join(os.tmpdir(), 'wield-example-'));
const registry = new ToolRegistry();
registry.register(readTool());
registry.register(writeTool());
// The project's rules, as the CLI reads them: edits in the workspace allowed, one file denied.
mkdirSync(path.join(workspace, '.wield'));
const rules = { permissions: { defaultMode: 'acceptEdits', deny: ['Write(secret.md)'] } };
writeFileSync(path.join(workspace, '.wield', 'settings.json'), JSON.stringify(rules));
const { settings } = await loadSettings({ cwd: workspace, home: workspace, trustProject: true });
const runtime = createRuntime({
  registry,
  session: createSession({ cwd: workspace }),
  policy: createPolicy({ settings, cwd: workspace, roots: [workspace] }),
});

const usage = { inputTokens: { total: 1, noCache: 1 }, outputTokens: { total: 1, text: 1 } };
const reply = (content, finish) => ({ content, finishReason: { unified: finish, raw: undefined }, usage, warnings: [] });
const call = (toolCallId, toolName, input) => ({ type: 'tool-call', toolCallId, toolName, input });
const model = new MockLanguageModelV3({
  doGenerate: [
    // Two calls in one step; the second's JSON has a trailing comma (wield repairs it and says so).
    reply(
      [
        call('w1', 'Write', '{"file_path": "notes.md", "content": "# Notes\\n"}'),
        call('w2', 'Write', '{"file_path": "todo.md", "content": "- ship",}'),
      ],
      'tool-calls',
    ),
    // A denied file: the permission engine refuses, the model reads why (no exception).
    reply([call('w3', 'Write', '{"file_path": "secret.md", "content": "x"}')], 'tool-calls'),
    reply([{ type: 'text', text: 'Wrote notes.md and todo.md.' }], 'stop'),
  ],
});

const result = await generateText({
  model,
  prompt: 'Write my notes',
  tools: toAISDKTools(runtime, { tools: ['Read', 'Write'] }),
  experimental_repairToolCall: wieldToolCallRepair(runtime),
  stopWhen: stepCountIs(5),
});
for (const step of result.steps) {
  for (const { toolCallId, output } of step.toolResults) {
    console.log(`${toolCallId} ${output.isError ? 'error' : 'ok'}: ${output.content.map((block) => block.text).join(' ')}`);
  }
}
console.log(`todo.md: ${JSON.stringify(readFileSync(path.join(workspace, 'todo.md'), 'utf8'))}`);
console.log(`answer: ${result.text}`);
rmSync(workspace, { recursive: true, force: true });
