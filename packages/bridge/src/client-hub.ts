/**
 * The connected clients: the WebSocket handshake of an admitted upgrade, messages to every client with a bound on
 * what may wait for a slow one, the ping that drops a silent peer (or one stuck in the middle of a frame), and
 * pausing every client's input while the agent cannot keep up (ws then pushes back on them over TCP).
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { Clock } from "@pi-elements/core";
import { type RawData, type WebSocket, WebSocketServer } from "ws";
import { CloseCode } from "./client-frames.js";
import { repeat } from "./clock-timers.js";
import type { Guard } from "./guard.js";

export interface ClientHubOptions {
  /** Largest client message in bytes; a bigger one disconnects the client with 1009. */
  maxPayload: number;
  /** Output waiting for one client beyond which it is disconnected with 1013. */
  maxClientBacklog: number;
  /** Milliseconds a client has to answer a ping (sent every half of it); closed with 1008. */
  frameTimeoutMs: number;
  /** What the pings and `frameTimeoutMs` run on. */
  clock: Clock;
  /** Chooses the subprotocol to answer with (ws's `handleProtocols`). */
  handleProtocols?: (protocols: Set<string>, request: IncomingMessage) => string | false;
  /** A client connected: what it must get first (the replay) is sent from here. */
  onConnect: (client: WebSocket) => void;
  onFrame: (client: WebSocket, data: RawData, isBinary: boolean) => void;
  log: (line: string) => void;
  guarded: Guard;
}

export class ClientHub {
  readonly #options: ClientHubOptions;
  readonly #clients = new Set<WebSocket>();
  /** Sockets between a passed check and the end of their handshake, counted against the client limit. */
  readonly #upgrading = new Set<Duplex>();
  /** When each client was last pinged and has not answered yet. */
  readonly #awaitingPong = new Map<WebSocket, number>();
  readonly #wss: WebSocketServer;
  /** Stops the pings. */
  readonly #stopPings: () => void;
  #paused = false;

  constructor(options: ClientHubOptions) {
    this.#options = options;
    this.#wss = new WebSocketServer({
      noServer: true,
      maxPayload: options.maxPayload,
      ...(options.handleProtocols === undefined ? {} : { handleProtocols: options.handleProtocols }),
    });
    this.#wss.on("connection", (client: WebSocket) => this.#connected(client));
    this.#stopPings = repeat(
      options.clock,
      () => options.guarded("pinging clients", () => this.#ping()),
      Math.max(1, Math.floor(options.frameTimeoutMs / 2)),
    );
  }

  /** Connected clients. */
  get size(): number {
    return this.#clients.size;
  }

  /** Connected clients and handshakes under way. */
  get connections(): number {
    return this.#clients.size + this.#upgrading.size;
  }

  /** Completes the handshake of an upgrade the gate let through. */
  accept(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.#upgrading.add(socket);
    socket.once("close", () => this.#upgrading.delete(socket));
    this.#wss.handleUpgrade(request, socket, head, (client) => {
      this.#upgrading.delete(socket);
      this.#wss.emit("connection", client, request);
    });
  }

  /**
   * Completes the handshake of an upgrade only to close the WebSocket at once with `code` and `reason` (a refusal the
   * page must be able to read, see UpgradeGate's `closeCode`): it never becomes a client and is sent nothing else. A
   * peer that does not answer the close within `graceMs` is cut off, as a refused handshake's socket is.
   */
  acceptToClose(
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    code: number,
    reason: string,
    graceMs: number,
  ): void {
    // The peer may have gone while its answer waited for its turn.
    if (socket.destroyed) return;
    this.#upgrading.add(socket);
    socket.once("close", () => this.#upgrading.delete(socket));
    this.#wss.handleUpgrade(request, socket, head, (client) => {
      this.#upgrading.delete(socket);
      client.on("error", () => {});
      const { clock } = this.#options;
      const cutOff = clock.setTimeout(() => client.terminate(), graceMs);
      client.once("close", () => clock.clearTimeout(cutOff));
      client.close(code, reason);
    });
  }

  /**
   * Sends one text message to every open client but `except`: a string, or whole records given as parts, which go
   * out as one message, a fragment per part.
   */
  broadcast(message: string | readonly Buffer[], except?: unknown): void {
    if (message.length === 0) return;
    const data = typeof message === "string" ? [Buffer.from(message)] : message;
    for (const client of this.#clients) if (client !== except) this.#send(client, data);
  }

  /** Sends one text message to one client (the replay, a notice, an answer for it alone), as `broadcast` does. */
  send(client: unknown, message: string): void {
    if (message.length === 0 || !this.#clients.has(client as WebSocket)) return;
    this.#send(client as WebSocket, message);
  }

  /**
   * The one way out to a client, so that the backlog limit holds for every message: past `maxClientBacklog` bytes
   * waiting, the client is closed with 1013 and gets nothing more (a client that never reads can then hold at most
   * the limit and one message, until ws drops its socket when the closing handshake times out).
   */
  #send(client: WebSocket, data: string | readonly Buffer[]): void {
    if (client.readyState !== client.OPEN) return;
    if (client.bufferedAmount > this.#options.maxClientBacklog) {
      this.#options.log(`[pi-bridge] disconnecting a slow client: ${client.bufferedAmount} bytes waiting for it`);
      client.close(CloseCode.tryAgainLater, "too much output waiting: reconnect");
      return;
    }
    if (typeof data === "string") {
      client.send(data, { binary: false });
      return;
    }
    // Parts go out as the fragments of one text message (RFC 6455 5.4), so no part is copied into a joined buffer:
    // the client's WebSocket hands over one message, as it would for one frame.
    const last = data.length - 1;
    for (let i = 0; i <= last; i++) client.send(data[i] as Buffer, { binary: false, fin: i === last });
  }

  /** Stops (true) or resumes (false) reading from every client, those that connect meanwhile too. */
  setPaused(paused: boolean): void {
    this.#paused = paused;
    for (const client of this.#clients) {
      if (paused) client.pause();
      else client.resume();
    }
  }

  /** Stops pinging and starts the closing handshake of every client. */
  close(code: number, reason: string): void {
    this.#stopPings();
    for (const client of this.#clients) client.close(code, reason);
  }

  /** Drops every connection at once. */
  terminate(): void {
    this.#stopPings();
    for (const client of this.#clients) client.terminate();
    this.#wss.close();
  }

  #connected(client: WebSocket): void {
    const { guarded } = this.#options;
    this.#clients.add(client);
    client.on("close", () => {
      this.#clients.delete(client);
      this.#awaitingPong.delete(client);
    });
    client.on("error", () => {
      // Oversized frames and protocol errors: ws closes with the right code (1009, 1002); nothing to add.
    });
    client.on("pong", () => this.#awaitingPong.delete(client));
    client.on("message", (data, isBinary) =>
      guarded("handling a client frame", () => this.#options.onFrame(client, data, isBinary)),
    );
    guarded("replaying the state", () => this.#options.onConnect(client));
    if (this.#paused) client.pause();
  }

  #ping(): void {
    const { clock, frameTimeoutMs, log } = this.#options;
    const now = clock.now();
    for (const client of this.#clients) {
      // ping() throws on a socket that is already closing.
      if (client.readyState !== client.OPEN) continue;
      const since = this.#awaitingPong.get(client);
      if (since === undefined) {
        this.#awaitingPong.set(client, now);
        client.ping();
      } else if (now - since >= frameTimeoutMs) {
        log(`[pi-bridge] closing a client that did not answer a ping in ${frameTimeoutMs} ms`);
        closeHard(client, CloseCode.policyViolation, "no pong in time: frame incomplete or peer gone");
      }
    }
  }
}

/**
 * Closes with a code and reason, and drops the connection at once rather than waiting for the peer's closing
 * handshake (a peer in the middle of a frame would never complete it).
 */
function closeHard(client: WebSocket, code: number, reason: string): void {
  client.close(code, reason);
  setImmediate(() => client.terminate());
}
