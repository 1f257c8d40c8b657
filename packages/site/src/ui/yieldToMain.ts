/**
 * Gives the main thread back to the browser (input, paint) so that work runs as several short
 * tasks instead of one long one (Lighthouse's total blocking time counts every task over 50 ms).
 * `scheduler.yield` where there is one, else a timeout.
 */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** The longest slice of work `inSlices` runs before it yields. */
const SLICE_MS = 8;

/**
 * Runs a generator's steps in slices of at most about SLICE_MS, yielding to the browser between
 * them, and resolves to its result; stops (resolving to undefined) once `signal` is aborted.
 */
export async function inSlices<T>(
  steps: Generator<unknown, T>,
  signal?: AbortSignal,
): Promise<T | undefined> {
  let deadline = performance.now() + SLICE_MS;
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() >= deadline) {
      await yieldToMain();
      if (signal?.aborted) return undefined;
      deadline = performance.now() + SLICE_MS;
    }
  }
}
