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

/**
 * Why a transport closed for good: "refused", the other end said it will not take this client (a bridge refusing the
 * token); "gave-up", its retries ran out; "closed", it was closed (by `close()`, or its stream ended). `detail` is the
 * other end's words where it gave any (a close reason), else "".
 */
export interface TransportEnd {
  reason: "refused" | "gave-up" | "closed";
  detail: string;
}

export interface TransportEventMap {
  record: ValueEvent<string>;
  state: ValueEvent<TransportState>;
  diagnostic: ValueEvent<Diagnostic>;
  [key: string]: Event;
}

export interface Transport extends TypedEventTarget<TransportEventMap> {
  readonly state: TransportState;
  /** Once `state` is "closed": why (a transport that does not say is taken as "closed"). */
  readonly end?: TransportEnd;
  /** Sends one record (a JSON text without line feeds). May queue while not open; never throws for that. */
  send(record: string): void;
  /** Closes for good: no reconnect, state becomes "closed". */
  close(): void;
}
