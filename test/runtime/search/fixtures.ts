// A small fixed pool of tools for ranking and deferral tests.
import { z } from 'zod';
import { defineTool } from '../../../src/runtime/tool/define.js';
import type { AnyTool } from '../../../src/runtime/tool/types.js';

export function mcpTool(server: string, name: string, description: string, properties: Record<string, unknown> = {}): AnyTool {
  return defineTool({
    name: `mcp__${server}__${name}`,
    source: 'mcp',
    server,
    description,
    inputJSONSchema: { type: 'object', properties },
    call: async () => 'ok',
  });
}

export function builtin(name: string, description = `${name} tool`): AnyTool {
  return defineTool({ name, source: 'builtin', description, inputSchema: z.object({ path: z.string() }), call: async () => 'ok' });
}

export const CORE = ['Read', 'Write', 'Edit', 'Bash', 'Grep', 'Glob', 'LS', 'ToolSearch'].map((n) => builtin(n));

export const POOL: AnyTool[] = [
  mcpTool('github', 'create_issue', 'Create a new issue in a GitHub repository.', { repo: { type: 'string' }, title: { type: 'string' } }),
  mcpTool('github', 'list_pull_requests', 'List pull requests of a repository.', {
    repo: { type: 'string' },
    state: { type: 'string', enum: ['open', 'closed'] },
  }),
  mcpTool('github', 'search_code', 'Search code across repositories.', { q: { type: 'string', description: 'search expression' } }),
  mcpTool('slack', 'send_message', 'Post a message to a Slack channel.', { channel: { type: 'string' }, text: { type: 'string' } }),
  mcpTool('slack', 'list_channels', 'List the channels of a workspace.'),
  mcpTool('weather', 'getForecast', 'Weather forecast for a city, up to 14 days ahead.', { city: { type: 'string' } }),
  mcpTool('weather', 'getCurrentConditions', 'Current temperature, wind and humidity at a location.', {
    lat: { type: 'number' },
    lon: { type: 'number' },
  }),
  mcpTool('movies', 'searchFilms', 'Find films by title, year or actor.', { title: { type: 'string' } }),
  mcpTool('calendar', 'create_event', 'Add an event to a calendar.', { start: { type: 'string', description: 'start time (ISO 8601)' } }),
  mcpTool('finance', 'stock_quote', 'Latest price of a stock ticker symbol.', { symbol: { type: 'string', default: 'AAPL' } }),
];
