/**
 * A stand-in for PiSession's answer path: records every `respond` call and, like the real one, accepts one answer
 * per id (a second answer returns false and is not sent). Its store holds no dialog: a request given with it is
 * one built by hand, which stays open until answered.
 */
import { type DialogAnswer, type DialogSession, realClock, UiState } from "@pi-elements/core";

export class FakeSession implements DialogSession {
  readonly ui = new UiState();
  readonly clock = realClock;
  /** Every call, accepted or not. */
  readonly calls: Array<{ id: string; answer: DialogAnswer }> = [];
  /** What would have gone on the wire. */
  readonly sent: Array<{ id: string; answer: DialogAnswer }> = [];

  respond(id: string, answer: DialogAnswer): boolean {
    this.calls.push({ id, answer });
    if (this.sent.some((entry) => entry.id === id)) return false;
    this.sent.push({ id, answer });
    return true;
  }
}
