// A test fixture: an MCP server offering the tools, resources and prompts the conformance suite's
// server scenarios call by name (their descriptions say what each returns), so that wield's
// gateway proxying it can be checked feature by feature against the server on its own.
// Questions to the client (elicitation, sampling, roots) are written once as `input_required`
// results: 2026-07-28 clients answer them by retrying, and the SDK asks 2025-era clients with
// real requests. `node reference-server.mjs stdio` or `node reference-server.mjs http PORT`.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { setTimeout } from 'node:timers/promises';
import {
  CLIENT_CAPABILITIES_META_KEY,
  createMcpHandler,
  createRequestStateCodec,
  fromJsonSchema,
  inputRequired,
  inputResponse,
  isLegacyRequest,
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceTemplate,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

// A 1x1 red PNG and a 44-byte silent WAV header: the smallest valid media of each kind.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = Buffer.from(
  'RIFF$\u0000\u0000\u0000WAVEfmt \u0010\u0000\u0000\u0000\u0001\u0000\u0001\u0000@\u001f\u0000\u0000@\u001f\u0000\u0000\u0001\u0000\u0008\u0000data\u0000\u0000\u0000\u0000',
  'latin1',
).toString('base64');

const JSON_SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword, never awaited
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

const text = (value) => ({ content: [{ type: 'text', text: value }] });
const form = (message, properties, required = Object.keys(properties)) =>
  inputRequired.elicit({ message, requestedSchema: { type: 'object', properties, required } });
const sampling = (question) =>
  inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: question } }], maxTokens: 100 });
const delay = (ms, signal) => setTimeout(ms, undefined, { signal });

/** The capabilities this request's client declared (2026-07-28 sends them with every request). */
function declared(ctx) {
  const envelope = ctx.mcpReq.envelope ?? {};
  return envelope[CLIENT_CAPABILITIES_META_KEY] ?? {};
}

/** Answers by key once every key is answered; else asks (again) for the ones still missing. */
async function gather(ctx, codec, requests, done) {
  const responses = ctx.mcpReq.inputResponses ?? {};
  const missing = Object.keys(requests).filter((key) => inputResponse(responses, key).kind === 'missing');
  if (missing.length === 0) return done(Object.fromEntries(Object.keys(requests).map((key) => [key, inputResponse(responses, key)])));
  return inputRequired({
    inputRequests: Object.fromEntries(missing.map((key) => [key, requests[key]])),
    requestState: await codec.mint({ step: 0 }),
  });
}

const shown = (view) => (view.kind === 'elicit' ? `action=${view.action}, content=${JSON.stringify(view.content ?? {})}` : view.kind);

function registerTools(server, codec) {
  const simple = (name, result) => server.registerTool(name, { description: `Conformance fixture: ${name}` }, async () => result);
  simple('test_simple_text', text('This is a simple text response for testing.'));
  simple('test_image_content', { content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] });
  simple('test_audio_content', { content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] });
  simple('test_embedded_resource', {
    content: [
      {
        type: 'resource',
        resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' },
      },
    ],
  });
  simple('test_multiple_content_types', {
    content: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' },
      },
    ],
  });
  simple('test_error_handling', {
    isError: true,
    content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }],
  });
  server.registerTool(
    'json_schema_2020_12_tool',
    { description: 'Tool with JSON Schema 2020-12 features', inputSchema: fromJsonSchema(JSON_SCHEMA_2020_12) },
    async () => text('ok'),
  );

  const logged = async (ctx) => {
    for (const [i, message] of ['Tool execution started', 'Tool processing data', 'Tool execution completed'].entries()) {
      if (i > 0) await delay(50);
      await ctx.mcpReq.log('info', message);
    }
    return text('Logged three messages');
  };
  server.registerTool('test_tool_with_logging', { description: 'Sends three log messages' }, logged);
  server.registerTool('test_logging_tool', { description: 'Sends three log messages' }, logged);
  server.registerTool('test_tool_with_progress', { description: 'Reports progress 0, 50, 100 of 100' }, async (ctx) => {
    for (const progress of [0, 50, 100]) {
      if (progress > 0) await delay(50);
      await ctx.mcpReq
        .notify({ method: 'notifications/progress', params: { progressToken: ctx.mcpReq._meta?.progressToken, progress, total: 100 } })
        .catch(() => undefined);
    }
    return text('Progress reported');
  });

  server.registerTool(
    'test_sampling',
    { description: 'Asks the client to sample', inputSchema: { prompt: z.string() } },
    async ({ prompt }, ctx) =>
      gather(ctx, codec, { sample: sampling(prompt) }, ({ sample }) =>
        text(`LLM response: ${sample.kind === 'sampling' ? JSON.stringify(sample.result.content) : shown(sample)}`),
      ),
  );
  server.registerTool(
    'test_elicitation',
    { description: 'Asks the user', inputSchema: { message: z.string() } },
    async ({ message }, ctx) =>
      gather(
        ctx,
        codec,
        {
          user: form(message, {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          }),
        },
        ({ user }) => text(`User response: ${shown(user)}`),
      ),
  );
  server.registerTool('test_elicitation_sep1034_defaults', { description: 'Asks with defaults' }, async (ctx) =>
    gather(
      ctx,
      codec,
      {
        answers: form(
          'Please review the defaults',
          {
            name: { type: 'string', default: 'John Doe' },
            age: { type: 'integer', default: 30 },
            score: { type: 'number', default: 95.5 },
            status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
            verified: { type: 'boolean', default: true },
          },
          [],
        ),
      },
      ({ answers }) => text(`Elicitation completed: ${shown(answers)}`),
    ),
  );
  server.registerTool('test_elicitation_sep1330_enums', { description: 'Asks with every enum form' }, async (ctx) =>
    gather(
      ctx,
      codec,
      {
        choices: form(
          'Pick options',
          {
            untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            titledSingle: {
              type: 'string',
              oneOf: [
                { const: 'value1', title: 'First Option' },
                { const: 'value2', title: 'Second Option' },
              ],
            },
            legacyEnum: { type: 'string', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
            untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
            titledMulti: {
              type: 'array',
              items: {
                anyOf: [
                  { const: 'value1', title: 'First Choice' },
                  { const: 'value2', title: 'Second Choice' },
                ],
              },
            },
          },
          [],
        ),
      },
      ({ choices }) => text(`Elicitation completed: ${shown(choices)}`),
    ),
  );

  // The 2026-07-28 multi-round-trip tools.
  const nameForm = form('What is your name?', { name: { type: 'string' } });
  server.registerTool('test_input_required_result_elicitation', { description: 'Asks a name, then greets' }, async (ctx) =>
    gather(ctx, codec, { user_name: nameForm }, ({ user_name }) => text(`Hello, ${user_name.content?.name ?? 'nobody'}!`)),
  );
  server.registerTool('test_input_required_result_sampling', { description: 'Asks the client to sample' }, async (ctx) =>
    gather(ctx, codec, { capital_question: sampling('What is the capital of France?') }, ({ capital_question }) =>
      text(`Sampled: ${JSON.stringify(capital_question.result?.content ?? null)}`),
    ),
  );
  server.registerTool('test_input_required_result_list_roots', { description: 'Asks for roots' }, async (ctx) =>
    gather(ctx, codec, { client_roots: inputRequired.listRoots() }, ({ client_roots }) =>
      text(`Roots: ${(client_roots.roots ?? []).map((root) => root.uri).join(', ')}`),
    ),
  );
  server.registerTool('test_input_required_result_multiple_inputs', { description: 'Asks three ways at once' }, async (ctx) =>
    gather(ctx, codec, { user_name: nameForm, greeting: sampling('Say hello'), client_roots: inputRequired.listRoots() }, (views) =>
      text(`Got ${Object.keys(views).join(', ')}`),
    ),
  );
  // A signed state carries the round: a tampered one is refused before the handler runs.
  const stateful = (name, rounds, finish) =>
    server.registerTool(name, { description: `Asks ${rounds.length} question(s) in turn` }, async (ctx) => {
      const state = ctx.mcpReq.requestState();
      const step = state === undefined ? 0 : state.step + 1;
      if (step > 0 && inputResponse(ctx.mcpReq.inputResponses, rounds[step - 1][0]).kind === 'missing')
        return inputRequired({ inputRequests: Object.fromEntries([rounds[step - 1]]), requestState: await codec.mint({ step: step - 1 }) });
      if (step >= rounds.length) return text(finish);
      return inputRequired({ inputRequests: Object.fromEntries([rounds[step]]), requestState: await codec.mint({ step }) });
    });
  stateful(
    'test_input_required_result_request_state',
    [['confirm', form('Please confirm', { ok: { type: 'boolean' } })]],
    'Confirmed: state-ok',
  );
  stateful(
    'test_input_required_result_tampered_state',
    [['confirm', form('Please confirm', { ok: { type: 'boolean' } })]],
    'Confirmed: state-ok',
  );
  stateful(
    'test_input_required_result_multi_round',
    [
      ['step1', form('Step 1: What is your name?', { name: { type: 'string' } })],
      ['step2', form('Step 2: What is your favorite color?', { color: { type: 'string' } })],
    ],
    'All steps done',
  );
  server.registerTool('test_input_required_result_capabilities', { description: 'Asks only what the client can answer' }, async (ctx) => {
    const caps = declared(ctx);
    const requests = {
      ...(caps.elicitation ? { user_name: nameForm } : {}),
      ...(caps.sampling ? { greeting: sampling('Say hello') } : {}),
      ...(caps.roots ? { client_roots: inputRequired.listRoots() } : {}),
    };
    if (Object.keys(requests).length === 0) return text('Nothing this client can answer');
    return gather(ctx, codec, requests, (views) => text(`Got ${Object.keys(views).join(', ')}`));
  });
  // Its argument travels in a header too (SEP-2243): the server checks the two agree.
  server.registerTool(
    'test_custom_headers',
    {
      description: 'Takes a region, mirrored in the Mcp-Param-Region header',
      inputSchema: fromJsonSchema({
        type: 'object',
        properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
        required: ['region'],
      }),
    },
    async ({ region }) => text(`Region: ${region}`),
  );
  // Closes the call's SSE stream first (SEP-1699): a client resumes it to get the answer.
  server.registerTool('test_reconnection', { description: 'Closes its stream, then answers' }, async (ctx) => {
    ctx.http?.closeSSE?.();
    await delay(200, ctx.mcpReq.signal);
    return text('Answered after the stream closed');
  });
  server.registerTool('test_streaming_elicitation', { description: 'Asks a name on the call itself' }, async (ctx) =>
    gather(ctx, codec, { user_name: nameForm }, ({ user_name }) => text(`Hello, ${user_name.content?.name ?? 'nobody'}!`)),
  );
  // Needs sampling: a client that did not declare it gets the typed -32021 error from the SDK.
  server.registerTool('test_missing_capability', { description: 'Needs the sampling capability' }, async (ctx) =>
    gather(ctx, codec, { sample: sampling('Needs sampling') }, () => text('sampled')),
  );
}

/**
 * The Tasks scenarios' tools. The SDK makes no tasks: these are plain calls, slow where the
 * scenarios need a task, so a server in front that makes long calls tasks (wield's gateway) can
 * be checked with them.
 */
function registerTaskTools(server, codec) {
  server.registerTool('greet', { description: 'Greets at once', inputSchema: { name: z.string() } }, async ({ name }) =>
    text(`Hello, ${name}!`),
  );
  server.registerTool(
    'slow_compute',
    { description: 'Sleeps `seconds`, then answers', inputSchema: { seconds: z.number(), label: z.string().optional() } },
    async ({ seconds, label }, ctx) => {
      await delay(seconds * 1000, ctx.mcpReq.signal);
      return text(`Computed ${label ?? 'result'} after ${seconds} s`);
    },
  );
  server.registerTool('failing_job', { description: 'Fails as a tool after a second' }, async (ctx) => {
    await delay(1000, ctx.mcpReq.signal);
    return { isError: true, content: [{ type: 'text', text: 'The job failed' }] };
  });
  server.registerTool('protocol_error_job', { description: 'Fails as a protocol error after a second' }, async (ctx) => {
    await delay(1000, ctx.mcpReq.signal);
    throw new ProtocolError(ProtocolErrorCode.InternalError, 'The job broke');
  });
  // Work a second before asking, so a server in front has made the call a task by then.
  const slowly = (handler) => async (ctx) => {
    if (ctx.mcpReq.inputResponses === undefined) await delay(1000, ctx.mcpReq.signal);
    return handler(ctx);
  };
  server.registerTool(
    'confirm_delete',
    { description: 'Works, then asks before deleting' },
    slowly((ctx) =>
      gather(ctx, codec, { confirm: form('Delete the file?', { confirm: { type: 'boolean' } }) }, ({ confirm }) =>
        text(`Delete: ${shown(confirm)}`),
      ),
    ),
  );
  server.registerTool(
    'multi_input',
    { description: 'Works, then asks two questions at once' },
    slowly((ctx) =>
      gather(
        ctx,
        codec,
        { first: form('First?', { value: { type: 'string' } }), second: form('Second?', { value: { type: 'string' } }) },
        (views) => text(`Got ${Object.keys(views).join(', ')}`),
      ),
    ),
  );
  server.registerTool('test_tool_with_task', { description: 'Asks a name, then works a second' }, async (ctx) =>
    gather(ctx, codec, { user_name: form('What is your name?', { name: { type: 'string' } }) }, async ({ user_name }) => {
      await delay(1000, ctx.mcpReq.signal);
      return text(`Done for ${user_name.content?.name ?? 'nobody'}`);
    }),
  );
}

function registerResources(server) {
  server.registerResource(
    'static-text',
    'test://static-text',
    { mimeType: 'text/plain', description: 'A static text resource' },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
    }),
  );
  server.registerResource(
    'static-binary',
    'test://static-binary',
    { mimeType: 'image/png', description: 'A static binary resource' },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'image/png', blob: PNG }],
    }),
  );
  server.registerResource(
    'watched-resource',
    'test://watched-resource',
    { mimeType: 'text/plain', description: 'A resource to subscribe to' },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Watched resource content.' }],
    }),
  );
  server.registerResource(
    'template-data',
    new ResourceTemplate('test://template/{id}/data', { list: undefined }),
    { mimeType: 'application/json', description: 'Data by id' },
    async (uri, { id }) => ({
      contents: [
        { uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) },
      ],
    }),
  );
}

function registerPrompts(server, codec) {
  server.registerPrompt('test_simple_prompt', { description: 'A prompt without arguments' }, async () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
  }));
  server.registerPrompt(
    'test_prompt_with_arguments',
    { description: 'A prompt with two arguments', argsSchema: { arg1: z.string(), arg2: z.string() } },
    async ({ arg1, arg2 }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } }],
    }),
  );
  server.registerPrompt(
    'test_prompt_with_embedded_resource',
    { description: 'A prompt embedding a resource', argsSchema: { resourceUri: z.string() } },
    async ({ resourceUri }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
          },
        },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    }),
  );
  server.registerPrompt('test_prompt_with_image', { description: 'A prompt with an image' }, async () => ({
    messages: [
      { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  }));
  server.registerPrompt('test_input_required_result_prompt', { description: 'Asks for context first' }, async (ctx) =>
    gather(
      ctx,
      codec,
      { user_context: form('What context should the prompt use?', { context: { type: 'string' } }) },
      ({ user_context }) => ({
        messages: [{ role: 'user', content: { type: 'text', text: `Context: ${user_context.content?.context ?? ''}` } }],
      }),
    ),
  );
}

function createFixture(codec) {
  const server = new McpServer(
    { name: 'conformance-fixture', version: '1.0.0' },
    {
      capabilities: { logging: {}, completions: {}, resources: { subscribe: true } },
      requestState: { verify: (state) => codec.verify(state) },
    },
  );
  registerTools(server, codec);
  registerTaskTools(server, codec);
  registerResources(server);
  registerPrompts(server, codec);
  server.server.setRequestHandler('completion/complete', async () => ({
    completion: { values: ['paris', 'park', 'party'], total: 3, hasMore: false },
  }));
  server.server.setRequestHandler('resources/subscribe', async () => ({}));
  server.server.setRequestHandler('resources/unsubscribe', async () => ({}));
  return server;
}

async function serveHttp(port, codec) {
  const modern = createMcpHandler(() => createFixture(codec), { legacy: 'reject' });
  const sessions = new Map();
  const http = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const request = new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers: req.headers, body });
    const sessionId = req.headers['mcp-session-id'];
    let response;
    if (typeof sessionId === 'string')
      response = sessions.has(sessionId)
        ? await sessions.get(sessionId).handleRequest(request)
        : new Response('unknown session', { status: 404 });
    else if (req.method === 'POST' && !(await isLegacyRequest(request.clone()))) response = await modern.fetch(request);
    else {
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (id) => sessions.set(id, transport),
        onsessionclosed: (id) => sessions.delete(id),
      });
      await createFixture(codec).connect(transport);
      response = await transport.handleRequest(request);
    }
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) Readable.fromWeb(response.body).pipe(res);
    else res.end();
  });
  http.listen(port, '127.0.0.1', () =>
    process.stderr.write(`conformance fixture listening on http://127.0.0.1:${http.address().port}/mcp\n`),
  );
}

const codec = createRequestStateCodec({ key: randomBytes(32) });
if (process.argv[2] === 'http') await serveHttp(Number(process.argv[3] ?? 0), codec);
else serveStdio(() => createFixture(codec));
