import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildCli, cleanEnv, runCli, runProcess, tempDir } from './helpers.js';

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

const DEMO = path.resolve('examples/demo-session.jsonl');

function place() {
  const cwd = tempDir('wield-cmd-cwd-');
  const home = tempDir('wield-cmd-home-');
  return { cwd, home, env: cleanEnv(home) };
}

describe('wield tools', () => {
  it('lists the pool with flags evaluated for an empty input', async () => {
    const { cwd, env } = place();
    const run = await runCli(cli, ['tools', '--json'], { cwd, env });
    expect(run.code).toBe(0);
    const rows = JSON.parse(run.stdout) as {
      name: string;
      source: string;
      readOnly: boolean;
      concurrencySafe: boolean;
      destructive: boolean;
      deferred: boolean;
    }[];
    const byName = new Map(rows.map((row) => [row.name, row]));
    for (const name of [
      'Read',
      'Write',
      'Edit',
      'Bash',
      'BashOutput',
      'KillShell',
      'Grep',
      'Glob',
      'LS',
      'WebFetch',
      'AskUserQuestion',
      'ToolSearch',
    ])
      expect(byName.has(name)).toBe(true);
    expect(byName.get('Read')).toMatchObject({ source: 'builtin', readOnly: true, concurrencySafe: true, deferred: false });
    expect(byName.get('Write')).toMatchObject({ readOnly: false });
    const table = await runCli(cli, ['tools'], { cwd, env });
    expect(table.stdout.split('\n')[0]).toMatch(/^NAME\s+SOURCE\s+READ-ONLY\s+CONCURRENT\s+DESTRUCTIVE\s+DEFERRED$/);
  });
});

describe('wield call', () => {
  it('prints what the model would get; exit 1 for an error result', async () => {
    const { cwd, env } = place();
    writeFileSync(path.join(cwd, 'a.txt'), 'alpha\nbeta\n');
    const ok = await runCli(cli, ['call', 'Read', JSON.stringify({ file_path: path.join(cwd, 'a.txt') })], { cwd, env });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('alpha');
    const json = await runCli(cli, ['call', 'Read', JSON.stringify({ file_path: path.join(cwd, 'a.txt') }), '--json'], { cwd, env });
    expect(JSON.parse(json.stdout)).toMatchObject({ toolName: 'Read', isError: false });
    const missing = await runCli(cli, ['call', 'Read', JSON.stringify({ file_path: path.join(cwd, 'nope.txt') })], { cwd, env });
    expect(missing.code).toBe(1);
    const unknown = await runCli(cli, ['call', 'Raed', '{}'], { cwd, env });
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toContain('Read');
  });

  it('denies an ask with no terminal, naming the rule, and honours --allow', async () => {
    const { cwd, env } = place();
    const input = JSON.stringify({ file_path: path.join(cwd, 'b.txt'), content: 'x' });
    const denied = await runCli(cli, ['call', 'Write', input], { cwd, env });
    expect(denied.code).toBe(1);
    expect(denied.stdout).toMatch(/Permission denied for Write[\s\S]*Edit\(\/b\.txt\)/);
    const allowed = await runCli(cli, ['call', 'Write', input, '--allow', 'Edit(/b.txt)'], { cwd, env });
    expect(allowed.code).toBe(0);
    expect(readFileSync(path.join(cwd, 'b.txt'), 'utf8')).toBe('x');
  });
});

describe('wield call on files', () => {
  it('Edit and Write work on an existing file: the person running the call has it in front of them', async () => {
    const { cwd, env } = place();
    writeFileSync(path.join(cwd, 'notes.txt'), 'alpha\nbeta\n');
    const edit = JSON.stringify({ file_path: 'notes.txt', old_string: 'beta', new_string: 'gamma' });
    const edited = await runCli(cli, ['call', 'Edit', edit, '--allow', 'Edit'], { cwd, env });
    expect(edited.code).toBe(0);
    expect(readFileSync(path.join(cwd, 'notes.txt'), 'utf8')).toBe('alpha\ngamma\n');
    const written = await runCli(cli, ['call', 'Write', JSON.stringify({ file_path: 'notes.txt', content: 'new\n' }), '--allow', 'Edit'], {
      cwd,
      env,
    });
    expect(written.code).toBe(0);
    expect(readFileSync(path.join(cwd, 'notes.txt'), 'utf8')).toBe('new\n');
    // Without permission nothing changes, whatever the read state; a deny on Edit stops Write too.
    const denied = await runCli(cli, ['call', 'Write', JSON.stringify({ file_path: 'notes.txt', content: 'x' })], { cwd, env });
    expect(denied.code).toBe(1);
    const editDenied = await runCli(
      cli,
      [
        'call',
        'Write',
        JSON.stringify({ file_path: 'notes.txt', content: 'x' }),
        '--deny',
        'Edit',
        '--permission-mode',
        'bypassPermissions',
      ],
      { cwd, env },
    );
    expect(editDenied.code).toBe(1);
    expect(editDenied.stdout).toContain('Edit');
    expect(readFileSync(path.join(cwd, 'notes.txt'), 'utf8')).toBe('new\n');
  });
});

describe('wield replay', () => {
  it('replays the demo session offline with no differences', async () => {
    const { cwd, env } = place();
    const run = await runCli(cli, ['replay', DEMO], { cwd, env });
    // Not written here, so approvals count only for its edits, which stay inside the replay folder.
    expect(run.stderr).toMatch(
      /^wield: \S+demo-session\.jsonl was not written by wield on this machine .*Edits inside the replay folder still run\.\n$/,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^5 calls: 5 same$/m);
    const json = await runCli(cli, ['replay', DEMO, '--json'], { cwd, env });
    expect(JSON.parse(json.stdout)).toMatchObject({ same: 5, differs: 0 });
  });

  it('reports a result that changed, with a diff, and exits 1', async () => {
    const { cwd, env } = place();
    const tampered = path.join(cwd, 'tampered.jsonl');
    copyFileSync(DEMO, tampered);
    writeFileSync(
      tampered,
      readFileSync(tampered, 'utf8').replace('"text":"greeting.txt:2:This line was edited."', '"text":"greeting.txt:2:Something else."'),
    );
    const run = await runCli(cli, ['replay', tampered], { cwd, env });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('✗ Grep toolu_demo_4: differs');
    expect(run.stdout).toContain('-greeting.txt:2:Something else.');
    expect(run.stdout).toContain('+greeting.txt:2:This line was edited.');
  });

  it('explains an unreadable file without a stack trace', async () => {
    const { cwd, env } = place();
    const run = await runCli(cli, ['replay', path.join(cwd, 'none.jsonl')], { cwd, env });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Cannot read the session file/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('--help', () => {
  it('documents every command and the flags of DESIGN.md', async () => {
    const { cwd, env } = place();
    const root = await runCli(cli, ['--help'], { cwd, env });
    expect(root.code).toBe(0);
    for (const flag of [
      '-p, --prompt',
      '--provider',
      '--model',
      '--base-url',
      '--permission-mode',
      '--allow',
      '--deny',
      '--output-format',
      '--max-turns',
      '--mcp-config',
      '--sandbox',
      '--resume',
      '--trust',
    ]) {
      expect(root.stdout).toContain(flag);
    }
    for (const command of ['tools', 'call', 'replay']) {
      expect(root.stdout).toContain(command);
      const help = await runCli(cli, [command, '--help'], { cwd, env });
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`Usage: wield ${command}`);
    }
  });

  it('refuses an interactive session without a terminal, pointing to -p', async () => {
    const { cwd, env } = place();
    const run = await runCli(cli, [], { cwd, env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('-p');
  });
});

describe('usage errors', () => {
  it('a mistyped command is named, with the closest one, and exits 2; `help COMMAND` works', async () => {
    const { cwd, env } = place();
    const typo = await runCli(cli, ['serch', 'weather'], { cwd, env });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/unknown command 'serch' \(did you mean search\?\)/);
    const unknownFlag = await runCli(cli, ['tools', '--bogus'], { cwd, env });
    expect(unknownFlag.code).toBe(2);
    expect(unknownFlag.stderr).toContain("unknown option '--bogus'");
    const help = await runCli(cli, ['help', 'search'], { cwd, env });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: wield search');
  });

  it('search wants exactly one of a non-blank QUERY and --queries', async () => {
    const { cwd, env } = place();
    writeFileSync(path.join(cwd, 'q.jsonl'), '{"query":"weather"}\n');
    const both = await runCli(cli, ['search', 'weather', '--queries', 'q.jsonl'], { cwd, env });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('not both');
    const blank = await runCli(cli, ['search', '   '], { cwd, env });
    expect(blank.code).toBe(2);
    expect(blank.stderr).toContain('give a QUERY');
  });

  it('a --mcp-config that cannot be used is an error naming where, for every command', async () => {
    const { cwd, env } = place();
    writeFileSync(path.join(cwd, 'bad.json'), '{"mcpServers": {\n  "a": {"command": "x",}\n}}');
    for (const args of [['tools'], ['mcp', 'list'], ['-p', 'hi']]) {
      const run = await runCli(cli, [...args, '--mcp-config', 'bad.json'], { cwd, env });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/--mcp-config: .*bad\.json:2:24: invalid JSON/);
    }
    const badEntry = await runCli(
      cli,
      ['mcp', 'list', '--json', '--mcp-config', '{"mcpServers": {"x": {"command": 42}, "y": {"args": []}}}'],
      { cwd, env },
    );
    expect(badEntry.code).toBe(1);
    expect(JSON.parse(badEntry.stdout).configErrors).toEqual([
      expect.objectContaining({ server: 'x', error: expect.stringContaining('command') }),
      expect.objectContaining({ server: 'y', error: expect.stringContaining('needs "command"') }),
    ]);
    const array = await runCli(cli, ['tools', '--mcp-config', '[]'], { cwd, env });
    expect(array.code).toBe(2);
    expect(array.stderr).toContain('not a JSON array');
    const inline = await runCli(cli, ['tools', '--json', '--mcp-config', '{"mcpServers": {}}'], { cwd, env });
    expect(inline.code).toBe(0);
  });

  it('a reader that closes the pipe early gets no stack trace', async () => {
    const { cwd, env } = place();
    const tools = Array.from({ length: 3000 }, (_, i) =>
      JSON.stringify({ name: `tool_${i}`, description: `weather forecast number ${i}` }),
    ).join('\n');
    writeFileSync(path.join(cwd, 'tools.jsonl'), tools);
    writeFileSync(path.join(cwd, 'q.jsonl'), Array.from({ length: 3000 }, (_, i) => JSON.stringify({ query: `weather ${i}` })).join('\n'));
    const run = await runProcess(
      '/bin/sh',
      ['-c', `"${process.execPath}" "${cli}" search --tools tools.jsonl --queries q.jsonl | head -1`],
      { cwd, env },
    );
    expect(run.stdout).toMatch(/^\{"query":"weather 0"/);
    expect(run.stderr).toBe('');
  });
});
