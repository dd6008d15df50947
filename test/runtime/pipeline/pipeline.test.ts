import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readFileSync } from 'node:fs';
import { defineTool } from '../../../src/runtime/tool/define.js';
import { ToolError } from '../../../src/runtime/tool/types.js';
import { runToolCall } from '../../../src/runtime/pipeline/run.js';
import { denyAll } from '../../../src/runtime/pipeline/policies.js';
import type { PermissionPolicy } from '../../../src/runtime/pipeline/types.js';
import type { HookHandler } from '../../../src/runtime/hooks/types.js';
import { echoTool, makeRuntime, textOf } from './helpers.js';

const signal = new AbortController().signal;
const call = (name: string, input: unknown, id = 'c1') => ({ id, name, input });

describe('runToolCall', () => {
  it('runs a valid call and returns the tool output', async () => {
    const rt = makeRuntime([echoTool]);
    const result = await runToolCall(call('Echo', '{"text":"hi","times":2}'), rt, signal);
    expect(result).toMatchObject({ toolUseId: 'c1', toolName: 'Echo', isError: false });
    expect(textOf(result)).toBe('hihi');
    expect(rt.events.map((e) => e.type)).toEqual(['tool_start', 'permission_decided', 'tool_end']);
  });

  it('resolves aliases and case slips, and suggests close names for unknown tools', async () => {
    const rt = makeRuntime([echoTool]);
    expect(textOf(await runToolCall(call('echo_tool', { text: 'a' }), rt, signal))).toBe('a');
    expect(textOf(await runToolCall(call('echo', { text: 'b' }), rt, signal))).toMatch(/^b\n\[wield: tool name "echo" taken as "Echo"\]/);
    const unknown = await runToolCall(call('Ecko', { text: 'a' }), rt, signal);
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/No tool named "Ecko". Did you mean "Echo"\?/);
  });

  it('tells the model what was repaired', async () => {
    const rt = makeRuntime([echoTool]);
    const result = await runToolCall(call('Echo', '{"text": "x", "times": "3", "loud": "true",}'), rt, signal);
    expect(result.isError).toBe(false);
    expect(textOf(result)).toMatch(/^XXX\n\[wield: .*repaired.*"times" was the string "3" and was read as number/s);
  });

  it('lists each invalid field with what was expected and what came', async () => {
    const rt = makeRuntime([echoTool]);
    const result = await runToolCall(call('Echo', { times: 9, loud: 'maybe' }), rt, signal);
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toMatch(/"text": .*\(got nothing \(missing\)\)/);
    expect(text).toMatch(/"times": .*(<=|5).*\(got number 9\)/);
    expect(text).toMatch(/"loud": .*\(got string "maybe"\)/);
    expect(text).toMatch(/Expected parameters: \{text, times\?, loud\?\}/);
  });

  it('validates raw JSON Schema tools with Ajv and reports invalid schemas as the tool’s fault', async () => {
    const raw = defineTool({
      name: 'Raw',
      description: 'raw',
      inputJSONSchema: {
        type: 'object',
        properties: { id: { type: 'integer', minimum: 1 } },
        required: ['id'],
        additionalProperties: false,
      },
      call: async (input: Record<string, unknown>) => `id=${String(input.id)}`,
    });
    const broken = defineTool({
      name: 'Broken',
      description: 'b',
      inputJSONSchema: { type: 'object', properties: { a: { type: 'no-such-type' } } },
      call: async () => 1,
    });
    const rt = makeRuntime([raw, broken]);
    expect(textOf(await runToolCall(call('Raw', { id: '4' }), rt, signal))).toMatch(
      /^id=4\n\[wield: "id" was the string "4" and was read as number\]$/,
    );
    const bad = await runToolCall(call('Raw', { id: 0, extra: 1 }), rt, signal);
    expect(textOf(bad)).toMatch(/"id": must be >= 1 \(got number 0\)/);
    expect(textOf(bad)).toMatch(/"extra": is not a parameter of this tool/);
    expect(textOf(await runToolCall(call('Broken', {}), rt, signal))).toMatch(/its input schema is invalid/);
  });

  it('an enum or const error lists the allowed values, for JSON Schema and zod tools alike', async () => {
    const raw = defineTool({
      name: 'Mode',
      description: 'm',
      inputJSONSchema: { type: 'object', properties: { mode: { enum: ['read', 'write'] }, kind: { const: 'file' } } },
      call: async () => 'ran',
    });
    const typed = defineTool({
      name: 'Typed',
      description: 't',
      inputSchema: z.object({ mode: z.enum(['read', 'write']) }),
      call: async () => 'ran',
    });
    const rt = makeRuntime([raw, typed]);
    const bad = textOf(await runToolCall(call('Mode', { mode: 'append', kind: 'dir' }), rt, signal));
    expect(bad).toMatch(/"mode": must be one of "read", "write" \(got string "append"\)/);
    expect(bad).toMatch(/"kind": must be "file" \(got string "dir"\)/);
    expect(textOf(await runToolCall(call('Typed', { mode: 'append' }), rt, signal))).toMatch(/"mode": .*"read".*"write"/);
  });

  it('runs validateInput, and turns thrown errors into error results', async () => {
    const picky = defineTool({
      name: 'Picky',
      description: 'p',
      inputSchema: z.object({ v: z.string() }),
      validateInput: (input) => (input.v === 'bad' ? { ok: false, message: 'v must not be "bad"; send another value' } : { ok: true }),
      call: async (input) => {
        if (input.v === 'toolerror') throw new ToolError('expected failure, try X');
        if (input.v === 'crash') throw new TypeError('boom');
        return input.v;
      },
    });
    const rt = makeRuntime([picky]);
    expect(textOf(await runToolCall(call('Picky', { v: 'bad' }), rt, signal))).toBe('v must not be "bad"; send another value');
    expect(textOf(await runToolCall(call('Picky', { v: 'toolerror' }), rt, signal))).toBe('expected failure, try X');
    const crash = await runToolCall(call('Picky', { v: 'crash' }), rt, signal);
    expect(crash).toMatchObject({ isError: true });
    expect(textOf(crash)).toBe('Picky failed: boom');
  });

  it('denies with the reason and the rule that would allow it', async () => {
    const rt = makeRuntime([echoTool], { policy: denyAll });
    expect(textOf(await runToolCall(call('Echo', { text: 'a' }), rt, signal))).toMatch(/Permission denied for Echo: all tools are denied/);
    const asking: PermissionPolicy = { decide: () => ({ behavior: 'ask', reason: 'Echo needs approval', suggestions: ['Echo'] }) };
    const noTty = makeRuntime([echoTool], { policy: asking });
    const denied = await runToolCall(call('Echo', { text: 'a' }), noTty, signal);
    expect(textOf(denied)).toMatch(/no one can approve it in this non-interactive run\. To allow it, the user can add the rule "Echo"/);
    const yes = makeRuntime([echoTool], { policy: asking, askPermission: async () => ({ behavior: 'allow' }) });
    expect(textOf(await runToolCall(call('Echo', { text: 'ok' }), yes, signal))).toBe('ok');
    const no = makeRuntime([echoTool], { policy: asking, askPermission: async () => ({ behavior: 'deny', message: 'use Read' }) });
    expect(textOf(await runToolCall(call('Echo', { text: 'ok' }), no, signal))).toMatch(/the user declined: use Read/);
    expect(no.events.some((e) => e.type === 'permission_asked')).toBe(true);
  });

  it('applies PreToolUse hooks: block, rewrite (validated again), context; PostToolUse: replace', async () => {
    const hooks: HookHandler[] = [
      {
        event: 'PreToolUse',
        matcher: 'Echo',
        run: async (input) => (input.tool_input?.text === 'secret' ? { block: { reason: 'no secrets' } } : {}),
      },
      {
        event: 'PreToolUse',
        matcher: 'Echo',
        run: async (input) =>
          input.tool_input?.text === 'rewrite' ? { updatedInput: { text: 'rewritten' }, additionalContext: 'note from hook' } : {},
      },
      {
        event: 'PreToolUse',
        matcher: 'Echo',
        run: async (input) => (input.tool_input?.text === 'badrewrite' ? { updatedInput: { times: 'x' } } : {}),
      },
      { event: 'PostToolUse', matcher: 'Other', run: async () => ({ replaceResult: { content: [{ type: 'text', text: 'never' }] } }) },
      {
        event: 'PostToolUse',
        run: async (input) =>
          input.tool_input?.text === 'replace' ? { replaceResult: { content: [{ type: 'text', text: 'replaced' }] } } : {},
      },
    ];
    const rt = makeRuntime([echoTool], { hooks });
    expect(textOf(await runToolCall(call('Echo', { text: 'secret' }), rt, signal))).toBe('Blocked by a PreToolUse hook: no secrets');
    expect(textOf(await runToolCall(call('Echo', { text: 'rewrite' }), rt, signal))).toBe('rewritten\nnote from hook');
    expect(textOf(await runToolCall(call('Echo', { text: 'badrewrite' }), rt, signal))).toMatch(/Invalid input for Echo/);
    expect(textOf(await runToolCall(call('Echo', { text: 'replace' }), rt, signal))).toBe('replaced');
  });

  it('a hook can tighten an allow into a deny but a failing hook never blocks', async () => {
    const hooks: HookHandler[] = [
      { event: 'PreToolUse', run: async () => ({ permissionDecision: 'deny', permissionDecisionReason: 'policy hook' }) },
      { event: 'PreToolUse', run: async () => ({ permissionDecision: 'allow' }) },
    ];
    expect(textOf(await runToolCall(call('Echo', { text: 'a' }), makeRuntime([echoTool], { hooks }), signal))).toMatch(
      /Denied by a PreToolUse hook: policy hook/,
    );
    const failing: HookHandler[] = [
      {
        event: 'PreToolUse',
        run: async () => {
          throw new Error('hook crashed');
        },
      },
    ];
    expect(textOf(await runToolCall(call('Echo', { text: 'a' }), makeRuntime([echoTool], { hooks: failing }), signal))).toBe('a');
  });

  it('spills a result over the budget to a file and shows head, tail and how to read more', async () => {
    const big = defineTool({
      name: 'Big',
      description: 'big',
      inputSchema: z.object({}),
      maxResultChars: 1000,
      call: async () => Array.from({ length: 500 }, (_, i) => `line ${i}`).join('\n'),
    });
    const rt = makeRuntime([big]);
    const result = await runToolCall(call('Big', {}), rt, signal);
    const text = textOf(result);
    expect(text.length).toBeLessThanOrEqual(1000);
    expect(text.startsWith('line 0\nline 1\n')).toBe(true);
    expect(text.endsWith('line 499')).toBe(true);
    const file = /saved in (\S+)\. Read more/.exec(text)?.[1] as string;
    expect(readFileSync(file, 'utf8')).toBe(Array.from({ length: 500 }, (_, i) => `line ${i}`).join('\n'));
    const offset = Number(/"offset": (\d+)/.exec(text)?.[1]);
    const firstOmitted = readFileSync(file, 'utf8').split('\n')[offset - 1];
    expect(text).not.toContain(`\n${firstOmitted}\n`);
  });

  it('passes images through and maps multi-block results', async () => {
    const image = defineTool({
      name: 'Img',
      description: 'img',
      inputSchema: z.object({}),
      call: async () => 'x',
      toModel: () => ({
        content: [
          { type: 'text', text: 'a picture' },
          { type: 'image', mediaType: 'image/png', data: 'AAAA' },
        ],
      }),
    });
    const result = await runToolCall(call('Img', {}), makeRuntime([image]), signal);
    expect(result.content).toEqual([
      { type: 'text', text: 'a picture' },
      { type: 'image', mediaType: 'image/png', data: 'AAAA' },
    ]);
  });

  it('a call to a tool that is still arriving (an MCP server connecting) waits for it', async () => {
    const late = defineTool({
      name: 'mcp__late__echo',
      description: 'Echo',
      inputJSONSchema: { type: 'object' },
      call: async () => 'late tool ran',
    });
    const asked: string[] = [];
    const rt = makeRuntime([echoTool], {
      waitForTool: async (name) => {
        asked.push(name);
        await new Promise((resolve) => setTimeout(resolve, 30));
        return name === late.name ? late : undefined;
      },
    });
    expect(textOf(await runToolCall(call('mcp__late__echo', {}), rt, signal))).toBe('late tool ran');
    expect(textOf(await runToolCall(call('Nope', {}), rt, signal))).toMatch(/No tool named "Nope"/);
    expect(asked).toEqual(['mcp__late__echo', 'Nope']);
  });

  it('a UI callback that throws does not lose the result', async () => {
    const rt = makeRuntime([echoTool], {
      emit: () => {
        throw new Error('ui bug');
      },
    });
    expect(textOf(await runToolCall(call('Echo', { text: 'a' }), rt, signal))).toBe('a');
  });
});
