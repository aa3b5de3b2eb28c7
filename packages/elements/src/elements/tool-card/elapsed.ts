/**
 * The live "Elapsed 3 s" of running tool cards, on one timer per clock however many cards run: each running card
 * subscribes, one timer ticks once a second while any is subscribed, and every tick asks each subscribed card to
 * render again. What a card shows is measured by the conversation store (`ToolExecution.startedAt`, `endedAt`, on
 * its clock), not by the card: two cards of one call agree, and a card made again does not start over.
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

/** Renders its host again once a second, on the shared ticker of a clock, while `track` says it runs. */
export class ElapsedController implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  readonly #wake = () => this.#host.requestUpdate();
  #ticker: Ticker | undefined;

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
    host.addController(this);
  }

  /** Ticks on `clock` while `running`; call before each render. */
  track(running: boolean, clock: Clock): void {
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
