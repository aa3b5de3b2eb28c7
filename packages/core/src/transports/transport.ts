/**
 * What every transport is: something that moves serialized JSON records (one record = one JSON text, no line
 * feed) in both directions. The session parses and validates; a transport only frames.
 *
 * Events:
 * - `record`  (`ValueEvent<string>`): one record arrived.
 * - `state`   (`ValueEvent<TransportState>`): the connection state changed.
 * - `diagnostic` (`ValueEvent<Diagnostic>`): a framing problem (oversized line, queue overflow, ...).
 */
import type { Diagnostic } from "../diagnostics.js";
import type { TypedEventTarget, ValueEvent } from "../events.js";

export type TransportState = "connecting" | "open" | "reconnecting" | "closed";

export interface TransportEventMap {
  record: ValueEvent<string>;
  state: ValueEvent<TransportState>;
  diagnostic: ValueEvent<Diagnostic>;
  [key: string]: Event;
}

export interface Transport extends TypedEventTarget<TransportEventMap> {
  readonly state: TransportState;
  /** Sends one record (a JSON text without line feeds). May queue while not open; never throws for that. */
  send(record: string): void;
  /** Closes for good: no reconnect, state becomes "closed". */
  close(): void;
}
