// The conformance suite's client under test: wield itself. The suite runs `<this> <server-url>`
// with MCP_CONFORMANCE_SCENARIO (and MCP_CONFORMANCE_CONTEXT for credentials) set; this turns
// the scenario into a wield command line: `wield call` for the scenario's tool, or `wield mcp
// list` where the scenario only needs a connection. WIELD_CLI names the CLI bundle.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const url = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');

/** The tool each scenario's server offers, and the arguments it expects. */
const CALLS = {
  tools_call: ['add_numbers', { a: 2, b: 3 }],
  'elicitation-sep1034-client-defaults': ['test_client_elicitation_defaults', {}],
  'sse-retry': ['test_reconnection', {}],
};
const LIST_ONLY = new Set([
  'initialize',
  'auth/client-credentials-basic',
  'auth/client-credentials-jwt',
  'auth/pre-registration',
  'auth/cross-app-access-complete-flow',
]);

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
  if (name === 'auth/cross-app-access-complete-flow') {
    // The ID token comes through the environment, as a person's would (see the spawn below). The
    // suite's IdP publishes OpenID metadata without the fields OpenID requires: its token URL is given.
    return {
      grant: 'cross-app',
      clientId: context.client_id,
      clientSecret: context.client_secret,
      idp: { tokenUrl: context.idp_token_endpoint, clientId: context.idp_client_id, idToken: '${IDP_ID_TOKEN}' },
    };
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
  ...(scenario.startsWith('elicitation') ? { elicitation: 'accept-defaults' } : {}),
};
const config = JSON.stringify({ mcpServers: { s: server } });
const [tool, args] = CALLS[scenario] ?? (LIST_ONLY.has(scenario) ? [] : ['test-tool', {}]);
const command = tool
  ? ['call', `mcp__s__${tool}`, JSON.stringify(args), '--allow', 'mcp__s', '--mcp-config', config]
  : ['mcp', 'list', '--json', '--mcp-config', config];

const home = mkdtempSync(path.join(os.tmpdir(), 'wield-conformance-client-'));
const browser = path.join(path.dirname(fileURLToPath(import.meta.url)), 'browser.mjs');
const result = spawnSync(process.execPath, [process.env.WIELD_CLI, ...command], {
  cwd: home,
  env: {
    PATH: process.env.PATH,
    HOME: home,
    WIELD_HOME: home,
    BROWSER: `${JSON.stringify(process.execPath)} ${JSON.stringify(browser)}`,
    ...(context.idp_id_token ? { IDP_ID_TOKEN: context.idp_id_token } : {}),
  },
  encoding: 'utf8',
  timeout: 60_000,
});
process.stdout.write(result.stdout ?? '');
process.stderr.write(result.stderr ?? '');
process.exit(result.status ?? 1);
