// Growable Int32Array buffers: the index keeps its per-tool and per-term numbers in typed
// arrays, whose contents the garbage collector neither scans nor copies. They start small, so
// each first grows while the first tools are indexed: a growth first met in optimised code
// sends that code back to the interpreter in the middle of a build.

/** A copy of `array` with room for at least `min` numbers (doubling); new numbers are 0. */
export function grown(array: Int32Array, min: number): Int32Array<ArrayBuffer> {
  const copy = new Int32Array(Math.max(min, array.length * 2));
  copy.set(array);
  return copy;
}
