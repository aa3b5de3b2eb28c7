/**
 * The bridge's one port: WebSocket upgrades that pass the gate go to the client hub; other requests get the
 * static files (to token holders) or a 426. Deadlines and a connection cap keep slow or numerous peers from
 * holding sockets open.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import type { ClientHub } from "./client-hub.js";
import type { Guard } from "./guard.js";
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
  /** Most open TCP connections of any kind; more are dropped. */
  maxConnections: number;
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
          send(response, 421, "Misdirected request");
          return;
        }
        const url = requestUrl(request.url);
        if (url === undefined) {
          send(response, 400, "Bad request");
          return;
        }
        if (staticHandler !== undefined) {
          if (!gate.staticAllowed(request, response, url)) {
            send(response, 401, "Unauthorized: open the http:// URL the bridge printed, with its ?token=");
            return;
          }
          staticHandler(request, response);
          return;
        }
        response.setHeader("Upgrade", "websocket");
        send(response, 426, "This is the pi-bridge WebSocket endpoint.");
      }),
  );
  server.maxConnections = options.maxConnections;
  server.on("clientError", (_error, socket: Duplex) => {
    // Malformed or timed-out requests: answered 400 and closed, never left open.
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
    else socket.destroy();
  });
  server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) =>
    guarded(
      "checking an upgrade",
      () => {
        socket.on("error", () => {});
        const refusal = gate.check(request, hub.connections);
        if (refusal === undefined) hub.accept(request, socket, head);
        else gate.refuse(request, socket, refusal);
      },
      () => socket.destroy(),
    ),
  );
  return server;
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
