// Drives the interactive CLI in a real pseudo-terminal through tmux.
import { execFileSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

export class TmuxSession {
  private constructor(readonly name: string) {}

  /** A private tmux server per session, so tests never touch a person's tmux. */
  private static args(name: string, ...rest: string[]): string[] {
    return ['-L', name, ...rest];
  }

  /** Starts `command` (argv) in a detached tmux session of a fixed size (160 × 50 unless given). */
  static start(name: string, argv: string[], env: NodeJS.ProcessEnv, cwd: string, size = { columns: 160, rows: 50 }): TmuxSession {
    const quoted = argv.map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
    const exports = Object.entries(env)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => `${key}='${String(value).replace(/'/g, `'\\''`)}'`)
      .join(' ');
    // `; sleep` keeps the pane open after exit so the last screen and the code can be read.
    execFileSync(
      'tmux',
      TmuxSession.args(
        name,
        'new-session',
        '-d',
        '-s',
        name,
        '-x',
        String(size.columns),
        '-y',
        String(size.rows),
        '-c',
        cwd,
        `env -i ${exports} ${quoted}; echo "[exit $?]"; sleep 30`,
      ),
    );
    return new TmuxSession(name);
  }

  screen(): string {
    return execFileSync('tmux', TmuxSession.args(this.name, 'capture-pane', '-p', '-t', this.name, '-S', '-200'), { encoding: 'utf8' });
  }

  /** The pane's title, as programs set it with OSC 0/2. */
  title(): string {
    return execFileSync('tmux', TmuxSession.args(this.name, 'display', '-p', '-t', this.name, '#{pane_title}'), {
      encoding: 'utf8',
    }).trim();
  }

  /** Whether the terminal shows its cursor (programs hide it with `ESC[?25l`). */
  cursorShown(): boolean {
    return (
      execFileSync('tmux', TmuxSession.args(this.name, 'display', '-p', '-t', this.name, '#{cursor_flag}'), { encoding: 'utf8' }).trim() ===
      '1'
    );
  }

  /** The program in the pane (the shell's child). */
  programPid(): number {
    const shell = execFileSync('tmux', TmuxSession.args(this.name, 'display', '-p', '-t', this.name, '#{pane_pid}'), {
      encoding: 'utf8',
    }).trim();
    return Number(execFileSync('pgrep', ['-P', shell], { encoding: 'utf8' }).trim().split('\n')[0]);
  }

  /** Sends a signal to the program in the pane. */
  signal(name: string): void {
    process.kill(this.programPid(), name);
  }

  /** Makes the terminal this many columns wide (the program gets SIGWINCH). */
  resize(columns: number): void {
    execFileSync('tmux', TmuxSession.args(this.name, 'resize-window', '-t', this.name, '-x', String(columns)));
  }

  /** Literal text, then Enter. */
  type(text: string): void {
    execFileSync('tmux', TmuxSession.args(this.name, 'send-keys', '-t', this.name, '-l', text));
    execFileSync('tmux', TmuxSession.args(this.name, 'send-keys', '-t', this.name, 'Enter'));
  }

  /** Pastes `text` as a terminal paste: bracketed (`-p`) when the program turned bracketed paste on. */
  paste(text: string): void {
    execFileSync('tmux', TmuxSession.args(this.name, 'set-buffer', '-b', 'wield-test', text));
    execFileSync('tmux', TmuxSession.args(this.name, 'paste-buffer', '-p', '-d', '-b', 'wield-test', '-t', this.name));
  }

  keys(...keys: string[]): void {
    execFileSync('tmux', TmuxSession.args(this.name, 'send-keys', '-t', this.name, ...keys));
  }

  /** Waits until the screen matches, counting occurrences so repeated prompts can be awaited. */
  async waitFor(pattern: RegExp | string, count = 1, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = this.screen();
      const found =
        typeof pattern === 'string'
          ? screen.split(pattern).length - 1
          : (screen.match(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`)) ?? []).length;
      if (found >= count) return screen;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(pattern)} ×${count}; screen:\n${screen}`);
      await sleep(50);
    }
  }

  /** What the editor holds: the lines between its two borders (the last two rules on the screen). */
  editorText(): string {
    const lines = this.screen().split('\n');
    const rules = lines.flatMap((line, index) => (/^─{20,}/.test(line) ? [index] : []));
    if (rules.length < 2) return '';
    return lines
      .slice(rules.at(-2)! + 1, rules.at(-1))
      .map((line) => line.trimEnd())
      .join('\n');
  }

  /** Waits until the editor holds `text` exactly. */
  async waitForEditor(text: string, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (let held = this.editorText(); held !== text; held = this.editorText()) {
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for the editor to hold ${JSON.stringify(text)}; it holds ${JSON.stringify(held)}`);
      await sleep(50);
    }
  }

  /** Waits until the session is open and its editor takes prompts (the keys line is printed then). */
  waitForPrompt(): Promise<string> {
    return this.waitFor('Enter sends');
  }

  kill(): void {
    try {
      execFileSync('tmux', TmuxSession.args(this.name, 'kill-server'));
    } catch {
      // already gone
    }
  }
}
