/** A controlled clock with the core's `Clock` shape: time moves only when a test calls `advance()`. */
export class FakeClock {
  #time: number;
  #nextHandle = 1;
  readonly #timers = new Map<number, { at: number; fn: () => void }>();

  constructor(start = 1_000_000) {
    this.#time = start;
  }

  now(): number {
    return this.#time;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const handle = this.#nextHandle++;
    this.#timers.set(handle, { at: this.#time + Math.max(0, ms), fn });
    return handle;
  }

  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as number);
  }

  /** Timers still waiting. */
  get pending(): number {
    return this.#timers.size;
  }

  /** Moves time forward by `ms`, running every timer that falls due, in order, at its own time. */
  advance(ms: number): void {
    const end = this.#time + ms;
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const entry of this.#timers) if (entry[1].at <= end && (!next || entry[1].at < next[1].at)) next = entry;
      if (!next) break;
      this.#timers.delete(next[0]);
      this.#time = next[1].at;
      next[1].fn();
    }
    this.#time = end;
  }
}
