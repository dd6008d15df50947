// URL elicitation by error (-32042, MCP 2025-11-25), against real server-everything over stdio:
// the page goes to the person through the elicitation callback, and once it is opened the call
// runs again, once; with no one to ask, or a refusal, the model reads which page is needed.
import { afterEach, describe, expect, it } from 'vitest';
import type { McpElicitation } from '../../../src/runtime/mcp/elicit.js';
import { UrlElicitationRequiredError } from '@modelcontextprotocol/client';
import { classifyCallError } from '../../../src/runtime/mcp/call-errors.js';
import { McpManager } from '../../../src/runtime/mcp/manager.js';
import { allowAll } from '../../../src/runtime/pipeline/policies.js';
import { serverEntry, tempDir, testRuntime, textOf } from './helpers.js';

const EVERYTHING = serverEntry('@modelcontextprotocol/server-everything');
const TOOL = 'mcp__everything__trigger-url-elicitation';
const PAGE = 'https://example.test/consent';
/** The page server-everything's error path names as the prerequisite. */
const PREREQUISITE = 'https://modelcontextprotocol.io';
let manager: McpManager | undefined;
afterEach(async () => {
  await manager?.close();
});

async function connect(elicit?: (request: McpElicitation) => 'accept' | 'decline') {
  const runtime = testRuntime(allowAll);
  const asked: McpElicitation[] = [];
  manager = new McpManager({
    features: elicit
      ? {
          elicit: async (request) => {
            asked.push(request);
            return { action: elicit(request) };
          },
        }
      : {},
  });
  manager.connectAll(
    { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } },
    { registry: runtime.registry, logDir: tempDir('url-logs') },
  );
  await manager.ready();
  return { runtime, asked };
}

describe('URL elicitation required (-32042)', () => {
  it('asks the person to open the page, then calls again once', async () => {
    const { runtime, asked } = await connect(() => 'accept');
    const result = await runtime.call(TOOL, JSON.stringify({ url: PAGE, message: 'Approve access', errorPath: true }));
    expect(result.isError).toBe(false);
    // The error's prerequisite page, then, on the call made again, the tool's own request for its page.
    expect(asked.map((request) => request.url)).toEqual([PREREQUISITE, PAGE]);
    expect(asked[0]).toMatchObject({ server: 'everything', mode: 'url' });
    expect(asked[1]).toMatchObject({ message: 'Approve access' });
  }, 30_000);

  it('a refusal tells the model which page is needed, and calls no more', async () => {
    const declined = await connect(() => 'decline');
    const refused = await declined.runtime.call(TOOL, JSON.stringify({ url: PAGE, errorPath: true }));
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain(`needs the person to open ${PREREQUISITE}`);
    expect(declined.asked).toHaveLength(1);
    // With no one to ask the server would not offer the tool; the error still reads the same.
    const alone = classifyCallError(
      'docs',
      'login',
      new UrlElicitationRequiredError([{ mode: 'url', url: PAGE, message: 'Log in', elicitationId: 'e1' }]),
      60_000,
      '',
    );
    expect(alone.message).toContain(`needs the person to open ${PAGE} before "login" can run`);
    expect(alone.lost).toBeUndefined();
  }, 30_000);
});
