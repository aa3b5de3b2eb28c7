/**
 * A store's subscribers, told once per batch of changes: `changed()` marks a change and schedules one flush through
 * `schedule` (none while one is pending, none without subscribers), so a burst of changes in one chunk is one call.
 * Both of a session's stores (`ui`, `conversation`) notify through one of these.
 */
export class BatchedNotifier {
  readonly #schedule: (flush: () => void) => void;
  readonly #listeners = new Set<() => void>();
  #flushScheduled = false;

  constructor(schedule: (flush: () => void) => void) {
    this.#schedule = schedule;
  }

  /** `listener` runs once per batch of changes. Returns the unsubscribe function. */
  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  };

  changed(): void {
    if (this.#flushScheduled || this.#listeners.size === 0) return;
    this.#flushScheduled = true;
    this.#schedule(this.#flush);
  }

  #flush = (): void => {
    this.#flushScheduled = false;
    for (const listener of [...this.#listeners]) {
      try {
        listener();
      } catch (error) {
        // One failing subscriber must not starve the others; the error still surfaces as an uncaught one.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  };
}

/** The default batching: one flush per synchronous burst. Wrapped: a browser's queueMicrotask throws "Illegal invocation" when called as a method of another object. */
export const microtaskSchedule = (flush: () => void): void => queueMicrotask(flush);

/**
 * One flush per animation frame where there are frames (a browser), else per burst. A page's conversation need not
 * be rendered more often than it is painted; a hidden tab's frames pause, and its snapshot is still current when read.
 */
export const frameSchedule = (flush: () => void): void => {
  if (typeof globalThis.requestAnimationFrame === "function") globalThis.requestAnimationFrame(() => flush());
  else queueMicrotask(flush);
};
