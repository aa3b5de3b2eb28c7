/** Helpers shared by the transport tests (browser and Node): event recorders and a hand-driven timer. */
import type { TimerClock } from "../src/transports/websocket.js";

type ValueTarget = { addEventListener(type: string, listener: (event: Event) => void): void };

/** Every value of `type` events, in order, from now on. */
export function collect<T>(target: ValueTarget, type: string): T[] {
  const values: T[] = [];
  target.addEventListener(type, (event) => values.push((event as Event & { value: T }).value));
  return values;
}

/** The value of the next `type` event that satisfies `accept`. */
export function nextValue<T>(
  target: ValueTarget,
  type: string,
  accept: (value: T) => boolean = () => true,
): Promise<T> {
  return new Promise((resolve) => {
    target.addEventListener(type, (event) => {
      const value = (event as Event & { value: T }).value;
      if (accept(value)) resolve(value);
    });
  });
}

/** Resolves once `count` values have been collected into `values` (checked on each `type` event). */
export function untilCount<T>(target: ValueTarget, type: string, values: T[], count: number): Promise<T[]> {
  if (values.length >= count) return Promise.resolve(values);
  return new Promise((resolve) => {
    target.addEventListener(type, () => {
      if (values.length >= count) resolve(values);
    });
  });
}

/** Timers that fire only when the test says so; remembers every requested delay. */
export class ManualTimers implements TimerClock {
  readonly delays: number[] = [];
  readonly #pending = new Map<number, () => void>();
  #nextId = 1;
  #armed: (() => void)[] = [];

  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.#nextId++;
    this.delays.push(ms);
    this.#pending.set(id, fn);
    for (const wake of this.#armed.splice(0)) wake();
    return id;
  }

  /** Resolves when a timer is pending (at once if one already is). */
  armed(): Promise<void> {
    if (this.#pending.size > 0) return Promise.resolve();
    return new Promise((resolve) => this.#armed.push(resolve));
  }

  clearTimeout(handle: unknown): void {
    this.#pending.delete(handle as number);
  }

  get pending(): number {
    return this.#pending.size;
  }

  /** Runs every timer armed so far. */
  fire(): void {
    const due = [...this.#pending.values()];
    this.#pending.clear();
    for (const fn of due) fn();
  }
}
