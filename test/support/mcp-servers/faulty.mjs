#!/usr/bin/env node
// A stdio MCP server of the tests' own that misbehaves on request.
// Flags: --tools N (generated tools, paged by --page-size, default 100), --garbage (non-JSON
// lines on stdout), --invalid-schema (two tools whose input schemas are broken).
// Tools: echo, crash (exits mid-call), hang (never answers), progress (reports steps),
// add_tool (adds a tool and sends tools/list_changed), structured, image, fail (isError).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const option = (name, fallback) => {
  const at = argv.indexOf(name);
  return at >= 0 ? Number(argv[at + 1]) : fallback;
};
const generated = option('--tools', 0);
const pageSize = option('--page-size', 100);
const garbage = flag('--garbage');

const text = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
const empty = { type: 'object', properties: {} };
const tools = [
  { name: 'echo', description: 'Echoes text back', inputSchema: text, annotations: { readOnlyHint: true } },
  { name: 'crash', description: 'Exits the process mid-call', inputSchema: empty },
  { name: 'hang', description: 'Never answers', inputSchema: empty, annotations: { readOnlyHint: true } },
  {
    name: 'progress',
    description: 'Reports progress steps',
    inputSchema: { type: 'object', properties: { steps: { type: 'number' } } },
  },
  { name: 'add_tool', description: 'Adds a tool named by text', inputSchema: text },
  { name: 'structured', description: 'Returns structured content', inputSchema: empty },
  { name: 'fail', description: 'Returns an error result', inputSchema: empty },
  { name: 'pid', description: 'Returns the process id', inputSchema: empty, annotations: { readOnlyHint: true } },
];
if (flag('--invalid-schema')) {
  tools.push({
    name: 'bad_type',
    description: 'Schema with an unknown type',
    inputSchema: { type: 'object', properties: { x: { type: 'strnig' } } },
  });
  tools.push({ name: 'not_object', description: 'Schema that is not an object schema', inputSchema: 'oops' });
}
for (let i = 0; i < generated; i++) {
  tools.push({
    name: `gen_${String(i).padStart(4, '0')}`,
    description: `Generated tool number ${i}`,
    inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
    annotations: { readOnlyHint: i % 2 === 0 },
  });
}

const server = new Server({ name: 'faulty', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });

server.setRequestHandler(ListToolsRequestSchema, async (request) => {
  if (garbage) process.stdout.write('this is not json\n{"half": \n');
  const start = Number(request.params?.cursor ?? 0);
  const end = start + pageSize;
  return { tools: tools.slice(start, end), ...(end < tools.length ? { nextCursor: String(end) } : {}) };
});

server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  const { name, arguments: args = {} } = request.params;
  if (garbage) process.stdout.write('more garbage\n');
  switch (name) {
    case 'echo':
      return { content: [{ type: 'text', text: String(args.text) }] };
    case 'crash':
      process.stderr.write('faulty: crashing on purpose\n');
      process.exit(3);
      break;
    case 'hang':
      return new Promise(() => {});
    case 'progress': {
      const steps = Number(args.steps ?? 3);
      const token = request.params._meta?.progressToken;
      for (let i = 1; i <= steps; i++) {
        if (token !== undefined) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress: i, total: steps, message: `step ${i}` },
          });
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      // The SDK client drops a progress notification it reads in the same chunk as the result;
      // a ping answered by the client proves it has read the last step before the result goes out.
      if (token !== undefined) await server.ping();
      return { content: [{ type: 'text', text: `done ${steps}` }] };
    }
    case 'add_tool':
      tools.push({ name: String(args.text), description: 'Added at run time', inputSchema: empty });
      await server.sendToolListChanged();
      return { content: [{ type: 'text', text: `added ${args.text}` }] };
    case 'structured':
      return { content: [{ type: 'text', text: '{"answer":42}' }], structuredContent: { answer: 42 } };
    case 'fail':
      return { content: [{ type: 'text', text: 'it went wrong' }], isError: true };
    case 'pid':
      return { content: [{ type: 'text', text: String(process.pid) }] };
    default:
      if (tools.some((tool) => tool.name === name)) return { content: [{ type: 'text', text: `${name} ok ${JSON.stringify(args)}` }] };
      return { content: [{ type: 'text', text: `unknown tool ${name}` }], isError: true };
  }
});

await server.connect(new StdioServerTransport());
process.stderr.write('faulty: ready\n');
