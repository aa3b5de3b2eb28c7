/**
 * What the transports share: one state field whose every change is an event, and the three ways to report
 * (`record`, `state`, `diagnostic`). Subclasses decide when the state moves; this class only keeps it honest
 * (no event for a non-change, nothing moves after "closed").
 */
import type { Diagnostic } from "../diagnostics.js";
import { excerpt } from "../diagnostics.js";
import { TypedEventTarget, ValueEvent } from "../events.js";
import { CLOSED_END } from "./end.js";
import type { Transport, TransportEnd, TransportEventMap, TransportState } from "./transport.js";

export abstract class BaseTransport extends TypedEventTarget<TransportEventMap> implements Transport {
  #state: TransportState;
  #end: TransportEnd | undefined;

  constructor(initial: TransportState) {
    super();
    this.#state = initial;
  }

  get state(): TransportState {
    return this.#state;
  }

  /** Once closed: why. */
  get end(): TransportEnd | undefined {
    return this.#end;
  }

  abstract send(record: string): void;
  abstract close(): void;

  /** Moves to `next` and says so; "closed" is final, and `end` says why (default: closed). */
  protected setState(next: TransportState, end: TransportEnd = CLOSED_END): void {
    if (this.#state === next || this.#state === "closed") return;
    this.#state = next;
    if (next === "closed") this.#end = end;
    this.dispatchEvent(new ValueEvent<TransportState>("state", next));
  }

  /** Nothing is delivered after "closed", even the rest of a chunk that a listener closed the transport in. */
  protected emitRecord(record: string): void {
    if (this.#state === "closed") return;
    this.dispatchEvent(new ValueEvent<string>("record", record));
  }

  protected emitDiagnostic(diagnostic: Diagnostic): void {
    this.dispatchEvent(new ValueEvent<Diagnostic>("diagnostic", diagnostic));
  }

  /** A `transport` diagnostic, with an excerpt of the record involved when there is one. */
  protected diagnose(message: string, record?: string): void {
    this.emitDiagnostic(
      record === undefined ? { code: "transport", message } : { code: "transport", message, excerpt: excerpt(record) },
    );
  }
}
