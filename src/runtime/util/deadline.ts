// A signal that aborts when `parent` does or after `ms`. Node's `AbortSignal.any([…,
// AbortSignal.timeout(ms)])` can lose the timeout signal to garbage collection before it fires
// (nodejs/node#57736; seen here as a 3 s fetch that a 1 s limit never stopped), so the timer is
// held here and cleared by `clear()` once the work is done.
export interface Deadline {
  signal: AbortSignal;
  /** True once the time ran out (not when the parent aborted). */
  expired: () => boolean;
  clear: () => void;
}

export function deadline(parent: AbortSignal, ms: number): Deadline {
  const controller = new AbortController();
  let timedOut = false;
  const onParent = (): void => controller.abort(parent.reason);
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`timed out after ${ms} ms`, 'TimeoutError'));
  }, ms);
  if (parent.aborted) onParent();
  else parent.addEventListener('abort', onParent, { once: true });
  return {
    signal: controller.signal,
    expired: () => timedOut,
    clear: () => {
      clearTimeout(timer);
      parent.removeEventListener('abort', onParent);
    },
  };
}
