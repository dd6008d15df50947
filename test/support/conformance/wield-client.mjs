// The conformance suite's client under test: wield itself. The suite runs `<this> <server-url>`
// with MCP_CONFORMANCE_SCENARIO (and MCP_CONFORMANCE_CONTEXT for credentials and tool calls) set;
// this turns the scenario into wield command lines: `wield call` for each of the scenario's tools,
// or `wield mcp list` where the scenario only needs a connection. WIELD_CLI names the CLI bundle.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const url = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');

/** The tools each scenario's server offers, and the arguments it expects, called in order. */
const CALLS = {
  tools_call: [['add_numbers', { a: 2, b: 3 }]],
  'elicitation-sep1034-client-defaults': [['test_client_elicitation_defaults', {}]],
  'sse-retry': [['test_reconnection', {}]],
  // The unrelated call comes between the two request-state flows: it must carry neither's state.
  'sep-2322-client-request-state': [
    ['test_mrtr_echo_state', {}],
    ['test_mrtr_unrelated', {}],
    ['test_mrtr_no_state', {}],
    ['test_mrtr_no_result_type', {}],
  ],
  'http-invalid-tool-headers': [['valid_tool', { region: 'us-west1' }]],
  // Each request kind whose headers the scenario checks (prompts have no `wield call` path).
  'http-standard-headers': [
    ['test_headers', {}],
    ['my-hyphenated-tool', {}],
    ['ListMcpResources', { server: 's' }],
    ['ReadMcpResource', { server: 's', uri: 'file:///path/to/file%20name.txt' }],
  ],
};
/** wield's own tools in CALLS; other names are the server's. */
const BUILTIN = new Set(['ListMcpResources', 'ReadMcpResource']);
/**
 * Tools wield must not offer (their x-mcp-header declarations are malformed): the driver lists
 * wield's tool pool and fails if any of them is in it.
 */
const REFUSED = {
  'http-invalid-tool-headers': [
    'invalid_empty_header',
    'invalid_object_header',
    'invalid_array_header',
    'invalid_null_header',
    'invalid_number_header',
    'invalid_duplicate_same_case',
    'invalid_duplicate_diff_case',
    'invalid_space_in_name',
    'invalid_colon_in_name',
    'invalid_non_ascii_name',
    'invalid_control_char_name',
  ],
};
const LIST_ONLY = new Set([
  'initialize',
  'auth/client-credentials-basic',
  'auth/client-credentials-jwt',
  'auth/pre-registration',
  'auth/cross-app-access-complete-flow',
  'auth/enterprise-managed-authorization',
  'auth/wif-jwt-bearer',
]);
/** Scenarios whose server asks questions: wield answers them with the schema's defaults. */
const ELICITING = new Set(['elicitation-sep1034-client-defaults', 'sep-2322-client-request-state']);

function oauthFor(name) {
  if (name === 'auth/client-credentials-basic') {
    return { grant: 'client_credentials', clientId: context.client_id, clientSecret: context.client_secret };
  }
  if (name === 'auth/client-credentials-jwt') {
    return {
      grant: 'client_credentials',
      clientId: context.client_id,
      privateKey: context.private_key_pem,
      signingAlgorithm: context.signing_algorithm,
    };
  }
  // 0.1.16 names the enterprise-managed (cross-app) scenario after the flow, later releases after the extension.
  if (name === 'auth/cross-app-access-complete-flow' || name === 'auth/enterprise-managed-authorization') {
    // The ID token comes through the environment, as a person's would (see the spawn below). The
    // suite's IdP publishes OpenID metadata without the fields OpenID requires: its token URL is given.
    return {
      grant: 'cross-app',
      clientId: context.client_id,
      clientSecret: context.client_secret,
      idp: { tokenUrl: context.idp_token_endpoint, clientId: context.idp_client_id, idToken: '${IDP_ID_TOKEN}' },
    };
  }
  if (name === 'auth/wif-jwt-bearer') {
    // The workload's identity token comes through the environment, as a platform provides it.
    return { grant: 'jwt-bearer', clientId: context.client_id, assertion: '${WORKLOAD_JWT}' };
  }
  if (name === 'auth/pre-registration') return { clientId: context.client_id, clientSecret: context.client_secret };
  // The suite's authorization server accepts this URL as a client ID metadata document.
  if (name === 'auth/basic-cimd') return { clientMetadataUrl: 'https://conformance-test.local/client-metadata.json' };
  return undefined;
}

const oauth = oauthFor(scenario);
const server = {
  type: 'http',
  url,
  // The suite's servers run on localhost: the network guard allows the URL's own host.
  ...(oauth ? { oauth } : {}),
  ...(ELICITING.has(scenario) ? { elicitation: 'accept-defaults' } : {}),
};
const config = JSON.stringify({ mcpServers: { s: server } });
const home = mkdtempSync(path.join(os.tmpdir(), 'wield-conformance-client-'));
const browser = path.join(path.dirname(fileURLToPath(import.meta.url)), 'browser.mjs');

function wield(args) {
  const result = spawnSync(process.execPath, [process.env.WIELD_CLI, ...args, '--mcp-config', config], {
    cwd: home,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      WIELD_HOME: home,
      BROWSER: `${JSON.stringify(process.execPath)} ${JSON.stringify(browser)}`,
      ...(context.idp_id_token ? { IDP_ID_TOKEN: context.idp_id_token } : {}),
      ...(context.valid_jwt ? { WORKLOAD_JWT: context.valid_jwt } : {}),
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
  process.stdout.write(result.stdout ?? '');
  process.stderr.write(result.stderr ?? '');
  return result;
}

const call = (tool, args) => wield(['call', BUILTIN.has(tool) ? tool : `mcp__s__${tool}`, JSON.stringify(args), '--allow', 'mcp__s']);

/** The schema-preservation scenario: the focal tool's schema as wield holds it, echoed back. */
function echoSchema() {
  const listed = wield(['tools', '--json', '--schemas']);
  if (listed.status !== 0) return listed.status ?? 1;
  const tool = JSON.parse(listed.stdout).find((row) => row.name === 'mcp__s__json_schema_2020_12_tool');
  return call('json_schema_echo', { schema: tool?.inputSchema }).status ?? 1;
}

function run() {
  if (scenario === 'json-schema-2020-12-preservation') return echoSchema();
  // The suite names the calls of some scenarios itself (custom headers: the values to mirror).
  const calls = context.toolCalls?.map((entry) => [entry.name, entry.arguments]) ?? CALLS[scenario];
  if (!calls && LIST_ONLY.has(scenario)) return wield(['mcp', 'list', '--json']).status ?? 1;
  let status = 0;
  for (const [tool, args] of calls ?? [['test-tool', {}]]) status ||= call(tool, args).status ?? 1;
  const refused = REFUSED[scenario];
  if (refused) {
    const listed = wield(['tools', '--json']);
    const offered = new Set(listed.status === 0 ? JSON.parse(listed.stdout).map((row) => row.name) : []);
    if (listed.status !== 0 || refused.some((tool) => offered.has(`mcp__s__${tool}`))) status ||= 1;
  }
  return status;
}

process.exit(run());
