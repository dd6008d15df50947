// wield's tools in LangChain.js: the tool loop from LangChain's docs (bindTools, then invoke each
// tool call), with wield's pipeline running every call.
// Run: npm run build && node examples/langchain.mjs
// The chat model is scripted so the example runs offline; use any LangChain chat model instead.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { createRuntime, createSession, ToolRegistry } from 'wield';
import { createPolicy, loadSettings, readTool, writeTool } from 'wield/coding';
import { invokeToolCall, toLangChainTools } from 'wield/langchain';

const workspace = mkdtempSync(path.join(os.tmpdir(), 'wield-example-'));
const { settings } = await loadSettings({ cwd: workspace, home: workspace });
const registry = new ToolRegistry();
registry.register(readTool());
registry.register(writeTool());
const runtime = createRuntime({
  registry,
  session: createSession({ cwd: workspace }),
  policy: createPolicy({ settings, mode: 'acceptEdits', cwd: workspace, roots: [workspace] }),
});

/** A scripted stand-in for a chat model: one reply per request. */
class ScriptedChatModel extends BaseChatModel {
  constructor(replies) {
    super({});
    this.replies = replies;
  }
  _llmType() {
    return 'scripted';
  }
  bindTools() {
    return this;
  }
  async _generate() {
    const next = this.replies.shift();
    const message =
      typeof next === 'string'
        ? new AIMessage(next)
        : new AIMessage({ content: '', tool_calls: next.map((call) => ({ ...call, type: 'tool_call' })) });
    return { generations: [{ message, text: '' }] };
  }
}

const model = new ScriptedChatModel([
  [
    { id: 'w1', name: 'Write', args: { file_path: 'plan.md', content: '1. ship\n' } },
    // Outside the workspace: the path guard refuses; the model reads why.
    { id: 'w2', name: 'Write', args: { file_path: '/etc/wield-example', content: 'x' } },
  ],
  'Saved the plan.',
]);

const tools = toLangChainTools(runtime);
const messages = [new HumanMessage('Save my plan')];
for (let turn = 0; turn < 5; turn++) {
  const reply = await model.bindTools(tools).invoke(messages);
  messages.push(reply);
  if (!reply.tool_calls?.length) break;
  // All calls of one step at once: wield's scheduler keeps its rules across them.
  const results = await Promise.all(reply.tool_calls.map((call) => invokeToolCall(runtime, tools, call)));
  for (const message of results) console.log(`${message.tool_call_id} ${message.status}: ${message.content}`);
  messages.push(...results);
}
console.log(`plan.md: ${JSON.stringify(readFileSync(path.join(workspace, 'plan.md'), 'utf8'))}`);
console.log(`answer: ${messages.at(-1).content}`);
rmSync(workspace, { recursive: true, force: true });
