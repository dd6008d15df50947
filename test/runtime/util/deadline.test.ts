import { describe, expect, it } from 'vitest';
import { deadline } from '../../../src/runtime/util/deadline.js';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('deadline', () => {
  it('aborts when the time runs out and says so', async () => {
    const limit = deadline(new AbortController().signal, 20);
    expect(limit.signal.aborted).toBe(false);
    await tick(60);
    expect(limit.signal.aborted).toBe(true);
    expect(limit.expired()).toBe(true);
    expect((limit.signal.reason as DOMException).name).toBe('TimeoutError');
  });

  it('follows the parent, which is not a timeout', () => {
    const parent = new AbortController();
    const limit = deadline(parent.signal, 10_000);
    parent.abort(new Error('stop'));
    expect(limit.signal.aborted).toBe(true);
    expect(limit.expired()).toBe(false);
    limit.clear();
    const already = deadline(parent.signal, 10_000);
    expect(already.signal.aborted).toBe(true);
    already.clear();
  });

  it('after clear, neither the timer nor the parent aborts it', async () => {
    const parent = new AbortController();
    const limit = deadline(parent.signal, 20);
    limit.clear();
    await tick(60);
    parent.abort();
    expect(limit.signal.aborted).toBe(false);
  });
});
