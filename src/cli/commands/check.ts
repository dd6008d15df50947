// `wield check bash 'COMMAND' [--json]` and `wield check path PATH [--json]`: what the
// permission engine and the path guard say under the active settings of this folder, without
// running anything. The answer is data, so both exit 0.
import type { Command } from 'commander';
import type { PermissionDecision } from '../../runtime/pipeline/types.js';
import type { ToolContext } from '../../runtime/tool/types.js';
import { createPolicy } from '../../coding/permissions/engine.js';
import { guardPath, type PathVerdict } from '../../coding/permissions/paths.js';
import { readDenyPredicate } from '../../coding/permissions/read-deny.js';
import { loadCliSettings, type CliSettings } from '../settings.js';
import { addJsonOption, addRuntimeOptions, type CliFlags } from '../options.js';
import { commandAction, writeOut } from '../exit.js';

export interface BashCheck {
  decision: PermissionDecision['behavior'];
  readOnly: boolean;
  reason: string;
  commands: string[];
}

async function workspace(flags: CliFlags, cwd: string): Promise<CliSettings & { roots: string[] }> {
  const settings = await loadCliSettings(cwd, flags);
  return { ...settings, roots: [cwd, ...settings.loaded.settings.permissions.additionalDirectories] };
}

/** The engine's decision for one Bash command in the active mode, with no hook. */
export async function checkBash(command: string, flags: CliFlags, cwd: string = process.cwd()): Promise<BashCheck> {
  const ws = await workspace(flags, cwd);
  const { settings } = ws.loaded;
  // Heavy (tree-sitter WASM, the Bash tool): loaded only for this subcommand.
  const [{ loadBashAnalyzer }, { bashTool, bashAnalysisOf }, { createSession }] = await Promise.all([
    import('../../coding/bash/index.js'),
    import('../../coding/tools/bash.js'),
    import('../../runtime/tool/session.js'),
  ]);
  await loadBashAnalyzer();
  const { containment } = await import('../../coding/permissions/containment.js');
  const { contained } = await containment(settings.sandbox);
  const session = createSession({ cwd, roots: ws.roots, readDenied: readDenyPredicate(settings.permissions.deny, ws.home), contained });
  const { autoAllowsBash, sandboxStatus } = await import('../../coding/sandbox/index.js');
  // The same view of the sandbox as a session's (cli/runtime.ts): auto-allow only when opted in.
  const sandbox = autoAllowsBash(settings.sandbox)
    ? { autoAllowBash: true, available: (await sandboxStatus(settings.sandbox)).available }
    : undefined;
  const tool = bashTool();
  const input = { command };
  const ctx: ToolContext = { signal: new AbortController().signal, session, toolUseId: 'check', onProgress: () => {} };
  // Validation analyses the command with the session's cwd and roots, as a real call would.
  await tool.validateInput?.(input, ctx);
  const toolCheck = await tool.checkPermissions(input, ctx);
  const policy = createPolicy({ settings, cwd, roots: ws.roots, home: ws.home, sandbox });
  const decision = policy.decide({ tool, input, toolCheck, session });
  const analysis = bashAnalysisOf(input);
  // Every suggested rule is needed: together they cover the parts nothing else allows.
  const suggestions = decision.suggestions?.length ? `; to allow it: ${decision.suggestions.join(' and ')}` : '';
  // With suggestions the engine's reason already names what is not allowed and why.
  const detail = decision.rule !== undefined || decision.suggestions !== undefined ? '' : ` (${analysis.reason})`;
  return {
    decision: decision.behavior,
    readOnly: analysis.readOnly,
    reason: `${decision.reason}${detail}${decision.behavior === 'ask' ? suggestions : ''}`,
    commands: analysis.commands,
  };
}

export async function checkPath(target: string, flags: CliFlags, cwd: string = process.cwd()): Promise<PathVerdict> {
  const ws = await workspace(flags, cwd);
  const { inside, resolved, reason } = guardPath(target, { cwd, roots: ws.roots });
  return { inside, resolved, reason };
}

/** An action printing what `body` returns (a check's answer is data: exit 0). */
function run<A extends unknown[]>(body: (...args: A) => Promise<string>): (...args: A) => Promise<void> {
  return commandAction(async (...args: A) => {
    await writeOut(await body(...args));
    return 0;
  });
}

export function register(program: Command): void {
  const check = program.command('check').description('what the permission engine says, without running anything');
  const bash = addJsonOption(
    addRuntimeOptions(
      check
        .command('bash')
        .description('decision for a shell command: {decision, readOnly, reason, commands}')
        .argument('<command>', "the command, e.g. 'git log --oneline'"),
    ),
  );
  bash.action(
    run(async (command: string) => {
      const flags = bash.optsWithGlobals<CliFlags>();
      const r = await checkBash(command, flags);
      return flags.json ? `${JSON.stringify(r, null, 2)}\n` : `${r.decision}: ${r.reason}\n`;
    }),
  );
  const file = addJsonOption(
    addRuntimeOptions(
      check
        .command('path')
        .description('whether a path is inside the workspace: {inside, resolved, reason}')
        .argument('<path>', 'a file or folder path'),
    ),
  );
  file.action(
    run(async (target: string) => {
      const flags = file.optsWithGlobals<CliFlags>();
      const r = await checkPath(target, flags);
      return flags.json ? `${JSON.stringify(r, null, 2)}\n` : `${r.inside ? 'inside' : 'outside'}: ${r.resolved} (${r.reason})\n`;
    }),
  );
}
