/**
 * A bounded FIFO of outgoing records for transports that cannot send right now (socket down, writer full).
 * Bounded because an outage can last longer than memory does; when full, the oldest record goes, since the
 * newest answers are the ones an agent is most likely still waiting for.
 */
export const DEFAULT_MAX_QUEUE = 1000;

export class RecordQueue {
  readonly #max: number;
  #items: string[] = [];

  constructor(max: number = DEFAULT_MAX_QUEUE) {
    if (!(max >= 1)) throw new RangeError(`maxQueue must be at least 1, got ${max}`);
    this.#max = max;
  }

  get size(): number {
    return this.#items.length;
  }

  /** Adds a record; returns the record it pushed out when the queue was full. */
  push(record: string): string | undefined {
    this.#items.push(record);
    return this.#items.length > this.#max ? this.#items.shift() : undefined;
  }

  shift(): string | undefined {
    return this.#items.shift();
  }

  /** Empties the queue and returns what it held, oldest first. */
  drain(): string[] {
    const items = this.#items;
    this.#items = [];
    return items;
  }
}
