/**
 * Answers on a raw socket and lets it go: the answer is written, the bridge's side is ended, and the socket is
 * destroyed once the answer has been handed to the system (or after `flushTimeoutMs`, for a peer that reads
 * nothing). Ending alone only half-closes a socket: a peer that never sends its own FIN would keep it, and its
 * place under `maxConnections`, for good.
 */
import type { Duplex } from "node:stream";
import type { Clock } from "@pi-elements/core";
import { backgroundTimeout } from "./clock-timers.js";

/** `flushTimeoutMs` runs on `clock`, the bridge's. */
export function answerAndClose(socket: Duplex, answer: string, flushTimeoutMs: number, clock: Clock): void {
  if (socket.destroyed) return;
  const timer = backgroundTimeout(clock, () => socket.destroy(), flushTimeoutMs);
  socket.once("close", () => clock.clearTimeout(timer));
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(answer, () => socket.destroy());
}
