// Posting lists of all terms in two shared typed arrays (tool ids, packed frequencies) rather
// than a pair of number arrays per term: lists that grow by push left most of an index build's
// garbage, and a garbage collection copies every number array the index holds, while typed
// array contents live outside the collected heap. Each list owns a region of the arrays; a full
// list moves to a region twice its size, and the region it leaves goes to the next list that
// grows to that size (sizes are powers of two, so most are reused).
import { grown } from './buffers.js';

const FIRST_CAPACITY = 2;
/** Few: the arrays first grow within the first tools (see grown). */
const INITIAL_SLOTS = 256;

/** One list's postings: views of the shared arrays, valid until the next push or removal. */
export interface Postings {
  ids: Int32Array;
  tfs: Int32Array;
}

export class PostingArena {
  private ids = new Int32Array(INITIAL_SLOTS);
  private tfs = new Int32Array(INITIAL_SLOTS);
  /** Per list: where its region starts, how many postings it holds, and its region's size. */
  private starts = new Int32Array(64);
  private counts = new Int32Array(64);
  private capacities = new Int32Array(64);
  private lists = 0;
  /** End of the regions handed out so far. */
  private top = 0;
  /** Start of each region a list has left, by size class (log2 of its size). */
  private readonly freeRegions: number[][] = Array.from({ length: 32 }, () => []);

  /** A new empty list's number (lists are numbered from 0, like term ids). */
  addList(): number {
    if (this.lists === this.starts.length) this.growLists();
    return this.lists++;
  }

  count(list: number): number {
    return this.counts[list];
  }

  view(list: number): Postings {
    const start = this.starts[list];
    const end = start + this.counts[list];
    return { ids: this.ids.subarray(start, end), tfs: this.tfs.subarray(start, end) };
  }

  push(list: number, id: number, tf: number): void {
    const count = this.counts[list];
    if (count === this.capacities[list]) this.move(list, Math.max(FIRST_CAPACITY, count * 2));
    const at = this.starts[list] + count;
    this.ids[at] = id;
    this.tfs[at] = tf;
    this.counts[list] = count + 1;
  }

  /** Removes a tool from a list; the last posting takes its place (order does not matter). */
  remove(list: number, id: number): void {
    const start = this.starts[list];
    const last = start + this.counts[list] - 1;
    for (let at = start; at <= last; at++) {
      if (this.ids[at] !== id) continue;
      this.ids[at] = this.ids[last];
      this.tfs[at] = this.tfs[last];
      this.counts[list]--;
      return;
    }
  }

  /** Gives a list a region of `capacity` slots, keeping its postings; its old one is freed. */
  private move(list: number, capacity: number): void {
    const from = this.starts[list];
    const to = this.takeRegion(capacity);
    // A loop rather than copyWithin: most lists are a few postings, shorter than a call.
    for (let i = 0; i < this.counts[list]; i++) {
      this.ids[to + i] = this.ids[from + i];
      this.tfs[to + i] = this.tfs[from + i];
    }
    if (this.capacities[list] > 0) this.freeRegions[sizeClass(this.capacities[list])].push(from);
    this.starts[list] = to;
    this.capacities[list] = capacity;
  }

  /** A free region of `capacity` slots (a power of two): one a list has left, else at the end. */
  private takeRegion(capacity: number): number {
    const reused = this.freeRegions[sizeClass(capacity)].pop();
    if (reused !== undefined) return reused;
    if (this.top + capacity > this.ids.length) this.growSlots(this.top + capacity);
    this.top += capacity;
    return this.top - capacity;
  }

  private growSlots(min: number): void {
    this.ids = grown(this.ids, min);
    this.tfs = grown(this.tfs, min);
  }

  private growLists(): void {
    this.starts = grown(this.starts, 0);
    this.counts = grown(this.counts, 0);
    this.capacities = grown(this.capacities, 0);
  }
}

/** log2 of a power of two. */
function sizeClass(capacity: number): number {
  return 31 - Math.clz32(capacity);
}
