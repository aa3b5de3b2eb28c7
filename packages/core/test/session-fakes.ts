/**
 * Test doubles for the session tests: a transport the test drives by hand and a clock that only moves when told.
 * (Kept independent of the real memory transport so these tests exercise the session alone.)
 */
import type { Diagnostic } from "../src/diagnostics.js";
import { TypedEventTarget, ValueEvent } from "../src/events.js";
import type { Transport, TransportEnd, TransportEventMap, TransportState } from "../src/transports/transport.js";

export class FakeTransport extends TypedEventTarget<TransportEventMap> implements Transport {
  state: TransportState = "open";
  end: TransportEnd | undefined;
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

  /** `end`: why, for "closed" (the transport's `end`). */
  setState(state: TransportState, end?: TransportEnd): void {
    this.state = state;
    if (state === "closed") this.end = end ?? { reason: "closed", detail: "" };
    this.dispatchEvent(new ValueEvent("state", state));
  }

  reportDiagnostic(diagnostic: Diagnostic): void {
    this.dispatchEvent(new ValueEvent("diagnostic", diagnostic));
  }
}

export { ManualClock } from "../../../test/support/manual-clock.js";

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
