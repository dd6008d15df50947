// wield's tools in the OpenAI Agents SDK: the agent calls them, wield's pipeline runs them, and a
// call wield would ask about pauses the run for approval (the SDK's interruptions).
// Run: npm run build && node examples/openai-agents.mjs
// The model is scripted so the example runs offline; leave `model` out to use OpenAI's default.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, run, setTracingDisabled, Usage } from '@openai/agents';
import { createRuntime, createSession, ToolRegistry } from 'wield';
import { createPolicy, editTool, loadSettings, readTool } from 'wield/coding';
import { toOpenAIAgentsTools } from 'wield/openai-agents';

setTracingDisabled(true); // the SDK's own traces go to OpenAI; wield's go to OpenTelemetry

const workspace = mkdtempSync(path.join(os.tmpdir(), 'wield-example-'));
writeFileSync(path.join(workspace, 'README.md'), 'Hello wrold\n');
mkdirSync(path.join(workspace, '.wield'));
// Edits ask for approval (the default mode); reads in the workspace are allowed.
writeFileSync(path.join(workspace, '.wield', 'settings.json'), JSON.stringify({ permissions: { defaultMode: 'default' } }));
const { settings } = await loadSettings({ cwd: workspace, home: workspace, trustProject: true });
const registry = new ToolRegistry();
registry.register(readTool());
registry.register(editTool());
const runtime = createRuntime({
  registry,
  session: createSession({ cwd: workspace }),
  policy: createPolicy({ settings, cwd: workspace, roots: [workspace] }),
});

/** A scripted stand-in for a model: one reply per request. */
function scriptedModel(replies) {
  let next = 0;
  const call = (callId, name, args) => ({ type: 'function_call', callId, name, status: 'completed', arguments: args });
  const steps = replies.map((step) =>
    typeof step === 'string'
      ? [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: step }] }]
      : step.map(([callId, name, args]) => call(callId, name, args)),
  );
  return {
    async getResponse() {
      return { usage: new Usage(), output: steps[next++] };
    },
    getStreamedResponse() {
      throw new Error('not streamed');
    },
  };
}

const model = scriptedModel([
  [['r1', 'Read', '{"file_path": "README.md"}']],
  [['e1', 'Edit', '{"file_path": "README.md", "old_string": "wrold", "new_string": "world"}']],
  'Fixed the typo.',
]);
const agent = new Agent({ name: 'fixer', instructions: 'Fix typos.', model, tools: toOpenAIAgentsTools(runtime) });

let result = await run(agent, 'Fix the typo in README.md');
while (result.interruptions.length > 0) {
  for (const item of result.interruptions) {
    console.log(`approval asked: ${item.rawItem.name} ${item.rawItem.arguments}`);
    result.state.approve(item);
  }
  result = await run(agent, result.state);
}
console.log(`README.md: ${JSON.stringify(readFileSync(path.join(workspace, 'README.md'), 'utf8'))}`);
console.log(`answer: ${result.finalOutput}`);
rmSync(workspace, { recursive: true, force: true });
