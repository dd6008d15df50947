#!/usr/bin/env node
// The wield command line. Only commander and light modules load here: each command's body,
// the SDKs, tree-sitter, MCP and the tools load through import() when a command runs.
import { Command, Option } from 'commander';
import { addJsonOption, addModelOptions, addRuntimeOptions, type CliFlags, OUTPUT_FORMATS } from './options.js';
import { commandAction as action, guardTerminalStderr } from './exit.js';
import { closestNames } from '../runtime/pipeline/lookup.js';
import { register as registerCheck } from './commands/check.js';
import { register as registerMcp } from './commands/mcp.js';
import { register as registerSandbox } from './commands/sandbox.js';
import { register as registerSearch } from './commands/search.js';
import { startTraceExport } from './tracing.js';
import { register as registerSessions } from './commands/sessions.js';
import { register as registerTrust } from './commands/trust.js';
import { looksLikeCommand, promptFromArgs } from './prompt-input.js';

const VERSION = '0.1.0';

/** A subcommand's own flags with the root's (e.g. `wield --allow X call ...`). */
function flagsOf(command: Command): CliFlags {
  return command.optsWithGlobals<CliFlags>();
}

/** Usage errors exit 2, like setup errors: the command line itself needs fixing. */
const USAGE_EXIT = 2;

/** A lone word close to a command name is most likely a mistyped command, not a prompt. */
function rejectMistypedCommand(program: Command, words: string[]): void {
  const names = program.commands.map((command) => command.name());
  const close = looksLikeCommand(words, (word) => closestNames(word, names, 2));
  if (close.length === 0) return;
  program.error(
    `error: unknown command '${words[0]}' (did you mean ${close.join(' or ')}?); commands: ${names.join(', ')}. ` +
      `To send it as a prompt, quote it with more words or use -p.`,
    { exitCode: USAGE_EXIT },
  );
}

function buildProgram(): Command {
  const program = new Command('wield')
    .description(
      'A coding agent in your terminal, built on the wield tool runtime.\nRun `wield` for an interactive session or `wield -p "PROMPT"` for one answer.',
    )
    .version(VERSION)
    .argument('[prompt...]', 'a prompt to start with (interactive), or to run with -p')
    .option(
      '-p, --prompt [prompt]',
      'run one prompt non-interactively and print the answer (the prompt may follow as words, or come on stdin)',
    )
    .addOption(
      new Option('--output-format <format>', "output of -p (stream-json: Claude Code's event lines; events: wield's own)")
        .choices(OUTPUT_FORMATS)
        .default('text'),
    )
    .option('--resume [id]', 'continue a saved session (its id, as printed); without an id, pick one')
    .option('-c, --continue', 'continue the newest session started in this folder')
    .helpCommand(true)
    .showHelpAfterError('(add --help for usage)')
    // Subcommands made after this inherit it: every usage error exits USAGE_EXIT, help 0.
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : USAGE_EXIT));
  addModelOptions(program);
  addRuntimeOptions(program);
  // A --mcp-config that cannot be used at all is a usage error for every command, before it runs.
  program.hook('preAction', async (_root, command) => {
    const flag = command.optsWithGlobals<CliFlags>().mcpConfig;
    if (flag === undefined) return;
    const { mcpConfigFlagError } = await import('../runtime/mcp/load.js');
    const problem = mcpConfigFlagError(flag, process.cwd());
    if (problem) command.error(`error: ${problem}`, { exitCode: USAGE_EXIT });
  });
  program.action(
    action(async (words: string[]) => {
      rejectMistypedCommand(program, words);
      const flags = program.opts<CliFlags>();
      const prompt = promptFromArgs(flags.prompt, words);
      if (flags.prompt !== undefined) {
        const { runOneShot } = await import('./oneshot.js');
        return runOneShot(prompt, flags);
      }
      if (!process.stdin.isTTY || !process.stdout.isTTY) {
        process.stderr.write('wield: an interactive session needs a terminal; use -p "PROMPT" for one-shot runs.\n');
        return 2;
      }
      const { runInteractive } = await import('./interactive.js');
      return runInteractive(flags, prompt);
    }),
  );

  const tools = addJsonOption(
    addRuntimeOptions(
      program
        .command('tools')
        .description('list the tool pool: name, source, readOnly, concurrencySafe, destructive, deferred')
        .option('--schemas', "with --json, each tool's input JSON Schema as wield holds it (providers get a per-dialect copy)"),
    ),
  );
  tools.action(
    action(async () => {
      const { runTools } = await import('./commands/tools.js');
      return runTools(flagsOf(tools));
    }),
  );

  const call = addJsonOption(
    addRuntimeOptions(
      program
        .command('call')
        .description('run one tool call through the whole pipeline and print what the model would get (exit 1 when the result is an error)')
        .argument('<tool>', 'tool name, e.g. Read')
        .argument('<json>', 'the input as JSON, e.g. \'{"file_path": "README.md"}\''),
    ),
  );
  call.action(
    action(async (toolName: string, json: string) => {
      const { runCall } = await import('./commands/call.js');
      return runCall(toolName, json, flagsOf(call));
    }),
  );

  const replay = addJsonOption(
    addRuntimeOptions(
      program
        .command('replay')
        .description(
          "re-run a recorded session's tool calls through today's pipeline, offline, in a fresh temporary folder; report where results differ (exit 1 if any do)",
        )
        .argument('<session>', 'a session file (.jsonl), e.g. examples/demo-session.jsonl'),
    ),
  );
  replay.action(
    action(async (file: string) => {
      const { runReplay } = await import('./commands/replay.js');
      return runReplay(file, flagsOf(replay));
    }),
  );
  registerCheck(program);
  registerMcp(program);
  registerSandbox(program);
  registerSearch(program);
  registerSessions(program);
  registerTrust(program);
  return program;
}

// A reader that goes away (`wield search ... | head -1`) is not an error worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

guardTerminalStderr();
// Only when OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT is set: the OpenTelemetry SDK loads then, not otherwise.
await startTraceExport(process.env, VERSION);
await buildProgram().parseAsync(process.argv);
