/**
 * Answers on a raw socket and lets it go: the answer is written, the bridge's side is ended, and the socket is
 * destroyed once the answer has been handed to the system (or after `flushTimeoutMs`, for a peer that reads
 * nothing). Ending alone only half-closes a socket: a peer that never sends its own FIN would keep it, and its
 * place under `maxConnections`, for good.
 */
import type { Duplex } from "node:stream";

export function answerAndClose(socket: Duplex, answer: string, flushTimeoutMs: number): void {
  if (socket.destroyed) return;
  const timer = setTimeout(() => socket.destroy(), flushTimeoutMs);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(answer, () => socket.destroy());
}
