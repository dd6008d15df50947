// QuickJS (quickjs-ng compiled to WASM, synchronous build): compiled once per process, and a
// fresh instance — its own WASM memory — for each program. A program that ends while it still
// awaits (stalled, out of time, stopped) leaves objects QuickJS cannot free, and freeing its
// runtime then aborts the whole WASM instance (an assertion in JS_FreeRuntime); with one instance
// per program, nothing is freed by hand: the instance is dropped and garbage-collected whole
// (measured: 300 stalled programs in a row, resident memory flat).
import { readFileSync } from 'node:fs';
import type { CustomizeVariantOptions, QuickJSSyncVariant, QuickJSWASMModule } from 'quickjs-emscripten-core';
import { isRecord } from '../util/record.js';
import { shippedFile } from '../util/shipped-file.js';

// Node's WebAssembly global, typed by what the variant options take (the project's type libraries
// do not declare it).
type WasmModule = NonNullable<CustomizeVariantOptions['wasmModule']>;
type WasmMemory = NonNullable<CustomizeVariantOptions['wasmMemory']>;
const wasm = (
  globalThis as unknown as {
    WebAssembly: {
      compile(bytes: Uint8Array): Promise<WasmModule>;
      Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory;
    };
  }
).WebAssembly;

/** The name the build copies the WASM file to, beside the bundle's chunks. */
export const WASM_FILE = 'quickjs-ng.wasm';

type Instantiate = (maxBytes: number) => Promise<QuickJSWASMModule>;
let loading: Promise<Instantiate> | undefined;

/** The smallest memory this build starts with (Emscripten's INITIAL_MEMORY). */
const INITIAL_BYTES = 16 * 1024 * 1024;
const PAGE = 65536;

/**
 * A fresh interpreter instance whose WASM memory can never pass `maxBytes` (Emscripten's own
 * default is 2 GB). QuickJS's heap limit does not count everything — ArrayBuffer contents escape
 * it (measured: 2,042 buffers of 1 MB under a 16 MB limit) — so this cap is what bounds a program's
 * memory; past it an allocation fails and QuickJS throws "out of memory". The first call loads and
 * compiles the WASM file (shared by all later ones).
 */
export async function newInterpreter(maxBytes: number): Promise<QuickJSWASMModule> {
  return (await load())(maxBytes);
}

/** Idempotent: concurrent callers share one load; a failed load is tried again next time. */
function load(): Promise<Instantiate> {
  loading ??= (async (): Promise<Instantiate> => {
    // Loaded on first use: programs that never run code never pay for the interpreter.
    const [{ newQuickJSWASMModuleFromVariant, newVariant }, imported] = await Promise.all([
      import('quickjs-emscripten-core'),
      import('@jitl/quickjs-ng-wasmfile-release-sync'),
    ]);
    // Node loads the package's ESM build (default = the variant); its types describe the CommonJS one (default.default).
    const variant = (
      isRecord(imported.default) && 'default' in imported.default ? imported.default.default : imported.default
    ) as QuickJSSyncVariant;
    // The compiled module is handed over, so Emscripten's own lookup (relative to a file the bundle moved) is never used.
    const wasmModule = await wasm.compile(readFileSync(shippedFile(WASM_FILE, '@jitl/quickjs-ng-wasmfile-release-sync/wasm')));
    return (maxBytes) => {
      // Whole from the start, never grown: growing detaches the views quickjs-emscripten-core holds
      // across an allocation (newPromise's pointer array), and a flood of tool calls then failed
      // with "Cannot perform %TypedArray%.prototype.values on a detached ArrayBuffer" instead of
      // stopping at its budget. Untouched pages cost no resident memory.
      const pages = Math.max(INITIAL_BYTES, Math.ceil(maxBytes / PAGE) * PAGE) / PAGE;
      const wasmMemory = new wasm.Memory({ initial: pages, maximum: pages });
      return newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmModule, wasmMemory }));
    };
  })().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
