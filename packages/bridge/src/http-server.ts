/**
 * The bridge's one port: WebSocket upgrades that pass the gate go to the client hub; other requests get the
 * static files (to token holders) or a 426. Deadlines and a connection cap keep slow or numerous peers from
 * holding sockets open: a connection must send its first byte within `firstByteTimeoutMs` and its whole first
 * request within `handshakeTimeoutMs`, and every refusal closes its connection at once (`Connection: close`, then
 * the socket is destroyed, whether or not the peer closes its side).
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { Clock } from "@pi-elements/core";
import type { ClientHub } from "./client-hub.js";
import type { Guard } from "./guard.js";
import { answerAndClose } from "./raw-answer.js";
import { requestUrl } from "./security.js";
import { send } from "./static-files.js";
import type { UpgradeGate } from "./upgrade-gate.js";

export interface BridgeServerOptions {
  gate: UpgradeGate;
  hub: ClientHub;
  /** Serves the static files, if any. */
  staticHandler?: RequestListener | undefined;
  /** Milliseconds an HTTP request (a WebSocket handshake too) may take to arrive whole. */
  handshakeTimeoutMs: number;
  /** Milliseconds a new connection may stay silent (before its first request, between any two bytes). */
  firstByteTimeoutMs: number;
  /** Most open TCP connections of any kind; more are dropped. */
  maxConnections: number;
  /** What the bound on writing a refusal runs on (the request and first-byte deadlines are Node's socket timers). */
  clock: Clock;
  log: (line: string) => void;
  guarded: Guard;
}

export function createBridgeServer(options: BridgeServerOptions): Server {
  const { gate, hub, staticHandler, handshakeTimeoutMs, guarded } = options;
  const server = createServer(
    {
      requestTimeout: handshakeTimeoutMs,
      headersTimeout: handshakeTimeoutMs,
      // How often those deadlines are checked (Node's default, 30 s, would let a short deadline run long).
      connectionsCheckingInterval: Math.min(30_000, Math.max(10, Math.floor(handshakeTimeoutMs / 4))),
    },
    (request, response) =>
      guarded("answering an HTTP request", () => {
        if (!gate.hostAllowed(request)) {
          refuse(response, 421, "Misdirected request");
          return;
        }
        const url = requestUrl(request.url);
        if (url === undefined) {
          refuse(response, 400, "Bad request");
          return;
        }
        if (staticHandler !== undefined) {
          if (gate.tooManyFailures && presentsCredentials(request, url)) {
            refuse(response, 429, "Too many failed token attempts: try again shortly");
            return;
          }
          if (!gate.staticAllowed(request, response, url)) {
            const answer = () =>
              refuse(response, 401, "Unauthorized: open the http:// URL the bridge printed, with its ?token=");
            // A request that presented something is a guess, answered in its turn; one with nothing, at once.
            if (presentsCredentials(request, url)) gate.answerFailure(answer);
            else answer();
            return;
          }
          staticHandler(request, response);
          return;
        }
        response.setHeader("Upgrade", "websocket");
        refuse(response, 426, "This is the pi-bridge WebSocket endpoint.");
      }),
  );
  server.maxConnections = options.maxConnections;
  const flushTimeoutMs = Math.min(1000, handshakeTimeoutMs);
  server.on("connection", (socket: Socket) => {
    // Until its first request has arrived, a connection that stays silent this long is dropped (a browser's
    // preconnected socket, or one left over after it refused a public page's request, would otherwise hold a place).
    // Node's socket idle timer, on real time whatever the bridge's clock: it starts again on every byte the HTTP
    // parser reads, which a timer of the bridge's own could not see without taking the bytes from the parser.
    socket.setTimeout(options.firstByteTimeoutMs, dropSilent);
  });
  const requestArrived = (request: IncomingMessage) => {
    request.socket.setTimeout(0);
    request.socket.off("timeout", dropSilent);
  };
  server.on("request", requestArrived);
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    // Malformed or timed-out requests: answered and closed, never left open (nor half-open).
    const timedOut = error.code === "ERR_HTTP_REQUEST_TIMEOUT";
    answerAndClose(
      socket,
      timedOut
        ? "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n"
        : "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n",
      flushTimeoutMs,
      options.clock,
    );
  });
  server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) =>
    guarded(
      "checking an upgrade",
      () => {
        socket.on("error", () => {});
        requestArrived(request);
        const refusal = gate.check(request, hub.connections);
        if (refusal === undefined) hub.accept(request, socket, head);
        else
          gate.refuse(request, socket, refusal, (code, reason) =>
            hub.acceptToClose(request, socket, head, code, reason, flushTimeoutMs),
          );
      },
      () => socket.destroy(),
    ),
  );
  return server;
}

/** A refusal: the connection closes once it is sent (no keep-alive for a peer that was refused). */
function refuse(response: ServerResponse, status: number, text: string): void {
  if (response.headersSent || response.destroyed) return;
  response.setHeader("Connection", "close");
  send(response, status, text);
}

function dropSilent(this: Socket): void {
  this.destroy();
}

/** Whether a request offers a token in some form (query, bearer, a bridge cookie): its failure is a guess. */
function presentsCredentials(request: IncomingMessage, url: URL): boolean {
  return (
    url.searchParams.has("token") ||
    request.headers.authorization !== undefined ||
    (request.headers.cookie ?? "").includes("pi-bridge")
  );
}

/** Starts listening; resolves with the port (rejects if it cannot bind). Later server errors are logged. */
export async function listen(server: Server, port: number, host: string, log: (line: string) => void) {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  server.on("error", (error) => log(`[pi-bridge] server error (ignored): ${error.message}`));
  return (server.address() as AddressInfo).port;
}
