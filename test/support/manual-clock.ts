/**
 * The one controlled clock of the test suites, with the core's `Clock` shape: time moves only when a test says so.
 * Used by the core's session and transport tests, the elements' countdown and toast tests, and the bridge's tests
 * about time (restart backoff, pings, token pacing, refusal bounds, dialog deadlines).
 */
import type { Clock } from "../../packages/core/src/session/clock.js";

/** A clock that runs timers only in `advance`, in deadline order. */
export class ManualClock implements Clock {
  #now: number;
  #nextHandle = 1;
  readonly #timers = new Map<number, { at: number; fn: () => void }>();
  /** Every delay asked for, in order. */
  readonly delays: number[] = [];
  #armedWaiters: Array<() => void> = [];

  /** `maxDelay` caps each timer the way real timers cap at 2^31-1 ms: a longer wait fires early. */
  constructor(
    start = 1_000_000,
    readonly maxDelay = Number.POSITIVE_INFINITY,
  ) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const handle = this.#nextHandle++;
    this.delays.push(ms);
    this.#timers.set(handle, { at: this.#now + Math.min(Math.max(0, ms), this.maxDelay), fn });
    for (const wake of this.#armedWaiters.splice(0)) wake();
    return handle;
  }

  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as number);
  }

  /** How many timers are armed. */
  get pending(): number {
    return this.#timers.size;
  }

  /**
   * Resolves once more than `count` timers are armed (at once if they are): for a timer that real I/O arms (a socket
   * closing, a process exiting). Count the timers that are always there (a bridge's ping timer) in `count`. Bound the
   * wait with `within` from wait-for.ts.
   */
  async armed(count = 0): Promise<void> {
    while (this.#timers.size <= count) await new Promise<void>((wake) => this.#armedWaiters.push(wake));
  }

  /** Runs the timers due next (the earliest armed), moving time to their deadline; the time moved, or undefined. */
  next(): number | undefined {
    let at: number | undefined;
    for (const timer of this.#timers.values()) if (at === undefined || timer.at < at) at = timer.at;
    if (at === undefined) return undefined;
    const step = at - this.#now;
    this.advance(step);
    return step;
  }

  /** Moves time forward without running any timer, as when a background tab's timers are throttled. */
  jump(ms: number): void {
    this.#now += ms;
  }

  /** Moves time forward by `ms`, running every timer that comes due on the way, each at its own time. */
  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const entry of this.#timers) if (entry[1].at <= end && (!next || entry[1].at < next[1].at)) next = entry;
      if (!next) break;
      this.#timers.delete(next[0]);
      this.#now = next[1].at;
      next[1].fn();
    }
    this.#now = end;
  }
}
