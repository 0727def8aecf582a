import { sleep } from '@accord/common';

// The one sleep is @accord/common's; tests take it from the kit with the rest.
export { sleep };

export interface EventuallyOptions {
  /** Pause between two checks (default 100 ms). */
  stepMs?: number;
  /**
   * For checks that run through an outage: a check that throws counts as not yet, and at the
   * deadline the last value is answered instead of an error, for the test's own assertion to
   * say what was missing.
   */
  tolerant?: boolean;
}

/**
 * Calls `check` until it answers something truthy and answers that; throws `timed out waiting
 * for <what>` after `timeoutMs`.
 */
export async function eventually<T>(
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  timeoutMs = 20_000,
  what = 'a condition',
  opts: EventuallyOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = opts.tolerant
      ? await Promise.resolve()
          .then(check)
          .catch(() => undefined)
      : await check();
    if (v) return v;
    if (Date.now() > deadline) {
      if (opts.tolerant) return v as T;
      throw new Error(`timed out waiting for ${what} (${timeoutMs} ms)`);
    }
    await sleep(opts.stepMs ?? 100);
  }
}
