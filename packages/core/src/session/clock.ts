/**
 * The session's notion of time. Deadlines and command timeouts go through it, so tests drive them with a
 * controlled clock instead of waiting, and an app can substitute its own scheduler.
 */
export interface Clock {
  /** Milliseconds; only differences matter, but `Date.now()` also makes a readable notification time. */
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Browsers and Node overflow (fire at once) above 2^31-1 ms; longer waits are armed again when this one ends. */
export const MAX_TIMER_DELAY = 2 ** 31 - 1;

export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, Math.min(ms, MAX_TIMER_DELAY)),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};
