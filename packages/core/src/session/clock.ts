/**
 * Time, in the one shape pi-elements uses everywhere: the session's dialog deadlines and command timeouts, a
 * transport's reconnect delays (`WebSocketTransport`'s `clock`), the elements' countdowns and toasts (on
 * `session.clock`), and every timer of the bridge (`startBridge`'s `clock`). Tests drive them all with one controlled
 * clock instead of waiting, and an app can substitute its own scheduler. An interval is a timeout armed again.
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

/**
 * One timer towards one deadline (a time on `clock`), for whatever keeps "the earliest deadline among many": the
 * session's dialogs, the bridge's mirror of them, a notification's dismissal, a countdown's next tick. `set` moves
 * the deadline (the same one again changes nothing); `onDue` runs once when the clock reaches it.
 *
 * A single wait is capped at `MAX_TIMER_DELAY` whatever the clock does with longer ones, and a wake-up before the
 * deadline (a capped wait, a clock that fires early) just waits again, so `onDue` never runs early.
 */
export class DeadlineTimer {
  readonly #clock: Clock;
  readonly #onDue: () => void;
  #deadline: number | undefined;
  #handle: unknown;

  constructor(clock: Clock, onDue: () => void) {
    this.#clock = clock;
    this.#onDue = onDue;
  }

  /** The deadline armed, or undefined when none is. */
  get deadline(): number | undefined {
    return this.#deadline;
  }

  /** Arms the timer for `deadline`, replacing the one armed; undefined, NaN or an infinite deadline disarms it. */
  set(deadline: number | undefined): void {
    const next = Number.isFinite(deadline) ? deadline : undefined;
    if (next === this.#deadline) return;
    this.clear();
    this.#deadline = next;
    if (next !== undefined) this.#wait(next);
  }

  /** Disarms the timer. */
  clear(): void {
    if (this.#handle !== undefined) this.#clock.clearTimeout(this.#handle);
    this.#handle = undefined;
    this.#deadline = undefined;
  }

  #wait(deadline: number): void {
    const ms = Math.min(MAX_TIMER_DELAY, Math.max(0, deadline - this.#clock.now()));
    this.#handle = this.#clock.setTimeout(this.#wake, ms);
  }

  readonly #wake = (): void => {
    this.#handle = undefined;
    const deadline = this.#deadline;
    if (deadline === undefined) return;
    if (this.#clock.now() < deadline) {
      this.#wait(deadline);
      return;
    }
    this.#deadline = undefined;
    this.#onDue();
  };
}
