/**
 * The live "Elapsed 3 s" of running tool cards, on one timer per clock however many cards run: each running card
 * subscribes, one timer ticks once a second while any is subscribed, and every tick asks each subscribed card to
 * render again. A card measures from when it first saw its call running (pi sends no start time), and keeps the time
 * it saw it end, for pi 0.73.1, which reports no duration (pi 1.6 does: `durationMs`).
 */
import { type Clock, DeadlineTimer } from "@pi-elements/core";
import type { ReactiveController, ReactiveControllerHost } from "lit";

const TICK_MS = 1000;

/** One timer on one clock, ticking while it has subscribers. */
class Ticker {
  readonly #clock: Clock;
  readonly #subscribers = new Set<() => void>();
  readonly #timer: DeadlineTimer;

  constructor(clock: Clock) {
    this.#clock = clock;
    this.#timer = new DeadlineTimer(clock, () => this.#tick());
  }

  subscribe(wake: () => void): void {
    this.#subscribers.add(wake);
    if (this.#timer.deadline === undefined) this.#timer.set(this.#clock.now() + TICK_MS);
  }

  unsubscribe(wake: () => void): void {
    this.#subscribers.delete(wake);
    if (this.#subscribers.size === 0) this.#timer.clear();
  }

  /** How many cards this ticker keeps up to date (for tests). */
  get size(): number {
    return this.#subscribers.size;
  }

  #tick(): void {
    if (this.#subscribers.size > 0) this.#timer.set(this.#clock.now() + TICK_MS);
    for (const wake of this.#subscribers) wake();
  }
}

const tickers = new WeakMap<Clock, Ticker>();

/** The shared ticker of `clock` (one per clock). */
export function tickerOf(clock: Clock): Ticker {
  let ticker = tickers.get(clock);
  if (!ticker) {
    ticker = new Ticker(clock);
    tickers.set(clock, ticker);
  }
  return ticker;
}

export class ElapsedController implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  readonly #wake = () => this.#host.requestUpdate();
  #ticker: Ticker | undefined;
  #running = false;
  /** When this card first saw its call running, on `clock`. */
  startedAt: number | undefined;
  /** When it saw the call end. */
  endedAt: number | undefined;

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
    host.addController(this);
  }

  /** Follows the card's status; call before each render. */
  track(running: boolean, clock: Clock): void {
    if (running) {
      if (this.startedAt === undefined || this.endedAt !== undefined) {
        this.startedAt = clock.now();
        this.endedAt = undefined;
      }
    } else if (this.#running && this.startedAt !== undefined && this.endedAt === undefined) {
      this.endedAt = clock.now();
    }
    this.#running = running;
    const ticker = running ? tickerOf(clock) : undefined;
    if (ticker !== this.#ticker) {
      this.#ticker?.unsubscribe(this.#wake);
      this.#ticker = ticker;
      ticker?.subscribe(this.#wake);
    }
  }

  hostConnected(): void {
    this.#ticker?.subscribe(this.#wake);
  }

  hostDisconnected(): void {
    this.#ticker?.unsubscribe(this.#wake);
  }
}
