// Runs one program in a fresh QuickJS runtime: no file system, network, timers or host objects —
// the program's only ways out are `tools.<Name>(input)` (a host promise per call, settled when the
// call ends) and `console.log`. The interpreter stays alive while a call waits for a person, so a
// program resumes where it paused and nothing it did runs twice. Bounded by a heap limit, a CPU
// budget (QuickJS's interrupt handler), a deadline that does not count a person's thinking time,
// and a stall check: a program awaiting what nothing can settle ends at once.
import type { QuickJSContext, QuickJSDeferredPromise, QuickJSHandle, QuickJSWASMModule } from 'quickjs-emscripten-core';
import { BOOTSTRAP, PROGRAM_FILE, wrapProgram } from './guest.js';
import type { CallOutcome, ProgramEnd, ProgramHost, ProgramLimits, ProgramRun } from './types.js';

export async function runProgram(module: QuickJSWASMModule, code: string, host: ProgramHost, limits: ProgramLimits): Promise<ProgramRun> {
  const runtime = module.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  let cpuUsed = 0;
  let sliceStart = 0;
  let cpuSpent = false;
  let booting = true;
  runtime.setInterruptHandler(() => {
    cpuSpent ||= !booting && cpuUsed + (performance.now() - sliceStart) > limits.cpuMs;
    return cpuSpent;
  });
  /** Runs the program's code, counting its CPU time. */
  const slice = <T>(run: () => T): T => {
    sliceStart = performance.now();
    try {
      return run();
    } catch (error) {
      // Node's stack ran out inside QuickJS before QuickJS's own limit did: the instance is left
      // half-way through a call and is never entered again (the program ends here).
      throw error instanceof RangeError ? new HostStackOverflow() : error;
    } finally {
      cpuUsed += performance.now() - sliceStart;
    }
  };

  const vm = runtime.newContext();
  const out = { text: '', truncated: false };
  const pending = new Set<QuickJSDeferredPromise>();
  let wake: () => void = () => undefined;
  installBridge(vm, host, out, limits.maxOutputChars, pending, () => wake());

  const started = performance.now();
  let end: ProgramEnd;
  try {
    end = await execute();
  } catch (error) {
    if (!(error instanceof HostStackOverflow)) throw error;
    end = { kind: 'error', name: 'RangeError', message: error.message };
  } finally {
    // Calls still running when the program ended settle into nothing; the instance is dropped, not freed (quickjs.ts).
    pending.clear();
  }
  if (end.kind === 'error' && /out of memory/i.test(end.message)) end = { kind: 'memory' };
  return { output: out.text, outputTruncated: out.truncated, end };

  async function execute(): Promise<ProgramEnd> {
    const boot = slice(() => vm.evalCode(BOOTSTRAP, 'bootstrap.js'));
    if (boot.error) throw new Error(`the interpreter's bootstrap failed: ${JSON.stringify(vm.dump(boot.error))}`);
    boot.value.dispose();
    // The bootstrap is ours (and slow only while V8 compiles the interpreter's code): not the program's CPU.
    booting = false;
    cpuUsed = 0;
    const evaluated = slice(() => vm.evalCode(wrapProgram(code), PROGRAM_FILE));
    if (evaluated.error) return failure(evaluated.error);
    const main = evaluated.value;
    // Removed when the program ends: a caller may run many programs under one signal.
    let stopWaiting: () => void = () => undefined;
    const aborted = new Promise<void>((resolve) => (stopWaiting = resolve));
    host.signal.addEventListener('abort', stopWaiting, { once: true });
    try {
      return await loop(main, aborted);
    } finally {
      host.signal.removeEventListener('abort', stopWaiting);
    }
  }

  async function loop(main: QuickJSHandle, aborted: Promise<void>): Promise<ProgramEnd> {
    for (;;) {
      const jobs = slice(() => runtime.executePendingJobs());
      if (jobs.error) return failure(jobs.error);
      if (cpuSpent) return { kind: 'cpu' };
      const state = vm.getPromiseState(main);
      if (state.type === 'rejected') return failure(state.error);
      // A settled program still waits for calls it started without awaiting: their effects happen anyway.
      if (state.type === 'fulfilled') {
        const value = state.value;
        const shown = pending.size === 0 && vm.typeof(value) !== 'undefined' ? showValue(vm, value, slice) : undefined;
        value.dispose();
        if (cpuSpent) return { kind: 'cpu' };
        if (shown !== undefined) print(out, `${shown}\n`, limits.maxOutputChars);
        if (pending.size === 0) return { kind: 'completed' };
      }
      if (pending.size === 0) return { kind: 'stalled' };
      if (host.signal.aborted) return { kind: 'aborted' };
      const left = limits.deadlineMs - (performance.now() - started - host.waitedMs());
      if (left <= 0) return { kind: 'deadline' };
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((resolve) => (wake = resolve)),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, left))),
        aborted,
      ]);
      clearTimeout(timer);
    }
  }

  function failure(error: QuickJSHandle): ProgramEnd {
    // An interrupt is how the CPU budget stops the program; it surfaces as an uncatchable error.
    // Reading the error runs the program's getters, which may loop or throw in turn.
    let failed: ProgramEnd;
    try {
      failed = cpuSpent ? { kind: 'cpu' } : errorEnd(vm, error, slice);
    } catch {
      failed = cpuSpent ? { kind: 'cpu' } : { kind: 'error', name: 'Error', message: 'the program threw a value that cannot be read' };
    }
    error.dispose();
    return failed;
  }
}

class HostStackOverflow extends Error {
  constructor() {
    super('Maximum call stack size exceeded (recursion too deep)');
  }
}

/** The two host functions the bootstrap takes and hides: print, and call a tool. */
function installBridge(
  vm: QuickJSContext,
  host: ProgramHost,
  out: { text: string; truncated: boolean },
  maxOutputChars: number,
  pending: Set<QuickJSDeferredPromise>,
  wake: () => void,
): void {
  const printFn = vm.newFunction('print', (text) => {
    if (vm.typeof(text) === 'string') print(out, `${vm.getString(text)}\n`, maxOutputChars);
  });
  const callFn = vm.newFunction('call', (nameHandle, inputHandle) => {
    // Only strings cross: the guest's objects are never read by the host, so no getter or proxy of theirs runs here.
    if (vm.typeof(nameHandle) !== 'string') return vm.newError({ name: 'TypeError', message: 'tool name must be a string' });
    const name = vm.getString(nameHandle);
    const json = vm.typeof(inputHandle) === 'string' ? vm.getString(inputHandle) : undefined;
    const deferred = vm.newPromise();
    pending.add(deferred);
    // Started after the guest's turn, never inside it.
    void Promise.resolve()
      .then(() => host.call(name, json === undefined ? {} : JSON.parse(json)))
      .catch((error: unknown): CallOutcome => ({ ok: false, message: String(error), kind: 'result_lost' }))
      .then((outcome) => {
        if (!pending.delete(deferred)) return; // the program already ended
        if (outcome.ok) {
          const text = vm.newString(outcome.text);
          deferred.resolve(text);
          text.dispose();
        } else {
          const error = vm.newError({ name: 'ToolError', message: outcome.message });
          vm.setProp(error, 'kind', vm.newString(outcome.kind));
          deferred.reject(error);
          error.dispose();
        }
        wake();
      });
    return deferred.handle;
  });
  vm.setProp(vm.global, '__wield_print', printFn);
  vm.setProp(vm.global, '__wield_call', callFn);
  printFn.dispose();
  callFn.dispose();
}

function print(out: { text: string; truncated: boolean }, text: string, max: number): void {
  if (out.truncated) return;
  const room = max - out.text.length;
  if (text.length <= room) out.text += text;
  else {
    out.text += text.slice(0, room);
    out.truncated = true;
  }
}

/** The program's value or error as text, read inside the guest (its getters run under the CPU budget). */
function showValue(vm: QuickJSContext, value: QuickJSHandle, slice: <T>(run: () => T) => T): string {
  try {
    const shown: unknown = slice(() => vm.dump(value));
    return typeof shown === 'string' ? shown : (JSON.stringify(shown) ?? String(shown));
  } catch {
    return '(a value that cannot be shown)';
  }
}

function errorEnd(vm: QuickJSContext, error: QuickJSHandle, slice: <T>(run: () => T) => T): ProgramEnd {
  const dumped: unknown = slice(() => vm.dump(error));
  if (typeof dumped !== 'object' || dumped === null)
    return { kind: 'error', name: 'Error', message: `uncaught ${JSON.stringify(dumped) ?? String(dumped)}` };
  const fields = dumped as { name?: unknown; message?: unknown; stack?: unknown };
  const name = typeof fields.name === 'string' ? fields.name : 'Error';
  const message = typeof fields.message === 'string' ? fields.message : (JSON.stringify(dumped) ?? 'unknown error');
  const stack = typeof fields.stack === 'string' ? fields.stack : '';
  const line = new RegExp(`${PROGRAM_FILE.replace('.', '\\.')}:(\\d+)`).exec(stack)?.[1];
  return { kind: 'error', name, message, ...(line ? { line: Number(line) } : {}) };
}
