import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildSystemPrompt } from '../../../src/runtime/agent/system-prompt.js';
import { defineTool } from '../../../src/runtime/tool/define.js';

const tool = (name: string, prompt?: string | (() => string)) =>
  defineTool({ name, description: name, prompt, inputSchema: z.object({}), call: async () => '' });

describe('buildSystemPrompt', () => {
  it("includes each active tool's guidelines and the place and date", () => {
    const text = buildSystemPrompt({
      tools: [
        tool('Read', 'Read files with absolute paths.'),
        tool('Quiet'),
        tool('Broken', () => {
          throw new Error('x');
        }),
      ],
      cwd: '/proj',
      date: new Date('2025-03-04T10:00:00Z'),
      platform: 'linux',
      extra: '# Deferred tools\nsome',
    });
    expect(text).toContain('## Read\nRead files with absolute paths.');
    expect(text).not.toContain('## Quiet');
    expect(text).not.toContain('## Broken');
    expect(text).toContain('- Working directory: /proj');
    expect(text).toContain('- Date: 2025-03-04');
    expect(text).toContain('# Deferred tools');
  });

  it('is deterministic for the same input (prompt caching)', () => {
    const input = { tools: [tool('A', 'a')], cwd: '/x', date: new Date(0), platform: 'linux' };
    expect(buildSystemPrompt(input)).toBe(buildSystemPrompt(input));
  });
});
