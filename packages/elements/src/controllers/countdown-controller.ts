/**
 * The countdown of a timed dialog, as pi shows it: whole seconds left, `ceil(remaining / 1000)`, one tick a
 * second, and a callback at zero. Time comes from an injectable clock (the session's `Clock` shape), so tests
 * advance a controlled clock instead of waiting.
 */
import type { ReactiveController, ReactiveControllerHost } from "lit";

/**
 * The same shape as the core session's `Clock` (structurally identical, so a PiSession's clock fits). Defined here,
 * not imported at run time, so a dialog element loaded on its own does not pull in the core's protocol code.
 */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, Math.min(ms, 2 ** 31 - 1)),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class CountdownController implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  readonly #onExpire: () => void;
  #clock: Clock = realClock;
  #deadline: number | undefined;
  #timer: unknown;
  #seconds: number | undefined;

  constructor(host: ReactiveControllerHost, onExpire: () => void) {
    this.#host = host;
    this.#onExpire = onExpire;
    host.addController(this);
  }

  /** Whole seconds left (at least 1 while running); undefined when no countdown runs. */
  get seconds(): number | undefined {
    return this.#seconds;
  }

  /**
   * Starts counting down to `deadline`, a time on `clock`; a deadline that is not a finite number (or undefined)
   * means none, and only stops a countdown already running.
   */
  start(deadline: number | undefined, clock: Clock): void {
    this.stop();
    if (!Number.isFinite(deadline)) return;
    this.#clock = clock;
    this.#deadline = deadline;
    this.#tick();
  }

  stop(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#deadline = undefined;
    this.#seconds = undefined;
  }

  hostConnected(): void {
    // Re-arm after the host was moved in the DOM while counting down.
    if (this.#deadline !== undefined && this.#timer === undefined) this.#tick();
  }

  hostDisconnected(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #tick(): void {
    this.#timer = undefined;
    const deadline = this.#deadline;
    if (deadline === undefined) return;
    const remaining = deadline - this.#clock.now();
    if (remaining <= 0) {
      this.stop();
      this.#host.requestUpdate();
      this.#onExpire();
      return;
    }
    const seconds = Math.ceil(remaining / 1000);
    if (seconds !== this.#seconds) {
      this.#seconds = seconds;
      this.#host.requestUpdate();
    }
    // Wake at the next whole-second boundary (or the deadline), not on a drifting 1 s interval.
    const untilNext = remaining - (seconds - 1) * 1000;
    this.#timer = this.#clock.setTimeout(() => this.#tick(), untilNext);
  }
}
