/**
 * Test doubles for the session tests: a transport the test drives by hand and a clock that only moves when told.
 * (Kept independent of the real memory transport so these tests exercise the session alone.)
 */
import type { Diagnostic } from "../src/diagnostics.js";
import { TypedEventTarget, ValueEvent } from "../src/events.js";
import type { Clock } from "../src/session/clock.js";
import type { Transport, TransportEventMap, TransportState } from "../src/transports/transport.js";

export class FakeTransport extends TypedEventTarget<TransportEventMap> implements Transport {
  state: TransportState = "open";
  /** Every record the session sent, in order. */
  readonly sent: string[] = [];
  closeCalls = 0;

  send(record: string): void {
    this.sent.push(record);
  }

  close(): void {
    this.closeCalls += 1;
    this.setState("closed");
  }

  /** Records sent so far, parsed. */
  sentMessages(): Record<string, unknown>[] {
    return this.sent.map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  /** Delivers records as if they arrived from pi; objects are serialized, strings go as they are. */
  receive(...records: (string | object)[]): void {
    for (const record of records) {
      this.dispatchEvent(new ValueEvent("record", typeof record === "string" ? record : JSON.stringify(record)));
    }
  }

  setState(state: TransportState): void {
    this.state = state;
    this.dispatchEvent(new ValueEvent("state", state));
  }

  reportDiagnostic(diagnostic: Diagnostic): void {
    this.dispatchEvent(new ValueEvent("diagnostic", diagnostic));
  }
}

/** A clock that runs timers only in `advance`, in deadline order. */
export class ManualClock implements Clock {
  #now: number;
  #nextHandle = 1;
  readonly #timers = new Map<number, { at: number; fn: () => void }>();

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
    this.#timers.set(handle, { at: this.#now + Math.min(Math.max(0, ms), this.maxDelay), fn });
    return handle;
  }

  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as number);
  }

  /** How many timers are armed. */
  get pending(): number {
    return this.#timers.size;
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

/** A schedule that holds flushes until the test runs them, to count batches exactly. */
export class ManualSchedule {
  readonly #queue: (() => void)[] = [];
  readonly schedule = (flush: () => void): void => {
    this.#queue.push(flush);
  };
  get queued(): number {
    return this.#queue.length;
  }
  runAll(): void {
    for (const flush of this.#queue.splice(0)) flush();
  }
}
