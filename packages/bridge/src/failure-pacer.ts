/**
 * Slows down token guessing. A failed token attempt is answered only in its turn, one per `intervalMs` for the
 * whole bridge, in arrival order, so each guess costs the guesser `intervalMs` however many connections it opens
 * (on loopback every local program shares 127.0.0.1, and any of them can bind 127.x.y.z: a budget per address would
 * not hold). A turn is kept even if its socket closes first: a guesser could otherwise read "no 101 yet" as
 * "wrong", close, and try again at once.
 *
 * At most `maxWaiting` failed attempts wait; while that many do, `full` is true and the gate refuses further
 * attempts before looking at their token (429), so nothing here grows without bound and guesses never outrun
 * `maxWaiting + elapsed / intervalMs`. The price: while a guesser keeps the queue full, a right token is refused
 * too (429), until the queue drains.
 */
import { type Clock, realClock } from "@pi-elements/core";
import { backgroundTimeout } from "./clock-timers.js";

export interface FailurePacerOptions {
  /** Milliseconds between two answers to failed attempts. */
  intervalMs: number;
  /** Most failed attempts waiting for their answer. */
  maxWaiting: number;
  clock?: Clock;
}

export class FailurePacer {
  readonly #intervalMs: number;
  readonly #maxWaiting: number;
  readonly #clock: Clock;
  readonly #waiting: Array<() => void> = [];
  #timer: unknown;

  constructor(options: FailurePacerOptions) {
    this.#intervalMs = options.intervalMs;
    this.#maxWaiting = options.maxWaiting;
    this.#clock = options.clock ?? realClock;
  }

  /** Whether no further failed attempt may be judged now. */
  get full(): boolean {
    return this.#waiting.length >= this.#maxWaiting;
  }

  /** Failed attempts waiting for their answer. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Runs `answer` in this failure's turn: `intervalMs` after the previous failure's answer, or after now. */
  delay(answer: () => void): void {
    this.#waiting.push(answer);
    this.#arm();
  }

  /**
   * Runs every waiting answer now, out of turn: the bridge is closing, so there is nothing left to guess, and an
   * upgraded socket is not the HTTP server's any more: unanswered, it would hold the server's `close()` open.
   */
  dispose(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const answer of this.#waiting.splice(0)) answer();
  }

  #arm(): void {
    if (this.#timer !== undefined || this.#waiting.length === 0) return;
    // A waiting refusal must not keep the process alive on its own.
    this.#timer = backgroundTimeout(
      this.#clock,
      () => {
        this.#timer = undefined;
        const answer = this.#waiting.shift();
        this.#arm();
        answer?.();
      },
      this.#intervalMs,
    );
  }
}
