/**
 * Two transports wired to each other in one JavaScript realm, for tests and demos. Delivery is asynchronous (a
 * microtask later) like any real channel, so code that works over memory does not secretly depend on a
 * synchronous reply; order is kept. Closing either end closes both, after the records already sent are
 * delivered, the way a socket's peer sees the end of the stream.
 */
import { BaseTransport } from "./base.js";

export class MemoryTransport extends BaseTransport {
  #peer: MemoryTransport | undefined;

  /** Use `createMemoryPair()`; an end without a peer drops what it is sent, with a diagnostic. */
  constructor() {
    super("open");
  }

  send(record: string): void {
    // Closing drops the peer, so an end without one is closed (or was never paired).
    const peer = this.#peer;
    if (peer === undefined) {
      this.diagnose("Record dropped: the memory transport is closed.", record);
      return;
    }
    // emitRecord drops it if the peer has closed by then.
    queueMicrotask(() => peer.emitRecord(record));
  }

  /** Closes this end now and the peer after everything sent before this call has reached it. */
  close(): void {
    if (this.state === "closed") return;
    const peer = this.#peer;
    this.#peer = undefined;
    this.setState("closed");
    if (peer) queueMicrotask(() => peer.close());
  }

  static pair(): [MemoryTransport, MemoryTransport] {
    const a = new MemoryTransport();
    const b = new MemoryTransport();
    a.#peer = b;
    b.#peer = a;
    return [a, b];
  }
}

/** Two open transports connected to each other: what one sends, the other receives, in order. */
export function createMemoryPair(): [MemoryTransport, MemoryTransport] {
  return MemoryTransport.pair();
}
