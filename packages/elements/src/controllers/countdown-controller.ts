/**
 * The countdown of a timed dialog, as pi shows it: whole seconds left, `ceil(remaining / 1000)`, one tick a
 * second, and a callback at zero. Time comes from an injectable clock (the session's `Clock` shape), so tests
 * advance a controlled clock instead of waiting.
 */
import { type Clock, DeadlineTimer, realClock } from "@pi-elements/core";
import type { ReactiveController, ReactiveControllerHost } from "lit";

export class CountdownController implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  readonly #onExpire: () => void;
  #timer: DeadlineTimer | undefined;
  #clock: Clock = realClock;
  #deadline: number | undefined;
  #seconds: number | undefined;

  constructor(host: ReactiveControllerHost, onExpire: () => void = () => {}) {
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
    if (clock !== this.#clock || this.#timer === undefined) {
      this.#clock = clock;
      this.#timer = new DeadlineTimer(clock, () => this.#tick());
    }
    this.#deadline = deadline;
    this.#tick();
  }

  stop(): void {
    this.#timer?.clear();
    this.#deadline = undefined;
    this.#seconds = undefined;
  }

  hostConnected(): void {
    // Re-arm after the host was moved in the DOM while counting down.
    if (this.#deadline !== undefined && this.#timer?.deadline === undefined) this.#tick();
  }

  hostDisconnected(): void {
    this.#timer?.clear();
  }

  #tick(): void {
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
    this.#timer?.set(deadline - (seconds - 1) * 1000);
  }
}
