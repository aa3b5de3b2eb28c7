// A real `ws` server on loopback for the WebSocket transport tests. Clients connect to ws://127.0.0.1:<port>/<room>;
// each room keeps what its clients sent, so tests running side by side do not see each other's traffic.
// Node tests use startWsTestServer() directly; browser tests reach the same calls through wsServerPlugin's
// commands (executeServerCommand).
import { once } from "node:events";
import { WebSocketServer } from "ws";

const WAIT_LIMIT_MS = 8000;

export async function startWsTestServer() {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await once(server, "listening");
  /** @type {Map<string, { clients: Set<import("ws").WebSocket>, received: string[], connections: number, waiters: Set<() => void> }>} */
  const rooms = new Map();
  const room = (name) => {
    let entry = rooms.get(name);
    if (!entry) {
      entry = { clients: new Set(), received: [], connections: 0, waiters: new Set() };
      rooms.set(name, entry);
    }
    return entry;
  };
  const changed = (entry) => {
    for (const wake of entry.waiters) wake();
  };
  /** Resolves when `ready()` holds, re-checked on every change in the room; rejects after WAIT_LIMIT_MS. */
  const waitUntil = (entry, ready, what) =>
    new Promise((resolve, reject) => {
      const check = () => {
        if (!ready()) return;
        clearTimeout(timer);
        entry.waiters.delete(check);
        resolve(undefined);
      };
      const timer = setTimeout(() => {
        entry.waiters.delete(check);
        reject(new Error(`ws test server: timed out waiting for ${what}`));
      }, WAIT_LIMIT_MS);
      entry.waiters.add(check);
      check();
    });

  server.on("connection", (socket, request) => {
    const entry = room(new URL(request.url ?? "/", "http://x").pathname.slice(1));
    entry.clients.add(socket);
    entry.connections += 1;
    socket.on("message", (data, isBinary) => {
      entry.received.push(isBinary ? `binary:${data.toString("utf8")}` : data.toString("utf8"));
      changed(entry);
    });
    socket.on("close", () => {
      entry.clients.delete(socket);
      changed(entry);
    });
    changed(entry);
  });

  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  return {
    port,
    url: (name) => `ws://127.0.0.1:${port}/${name}`,
    /** What the room's clients sent, one entry per frame (binary frames prefixed "binary:"). */
    received: (name) => [...room(name).received],
    /** Connections ever accepted in the room, and how many are open now. */
    connections: (name) => ({ total: room(name).connections, open: room(name).clients.size }),
    /** Waits until the room has received at least `count` frames, then returns them all. */
    async waitForReceived(name, count) {
      const entry = room(name);
      await waitUntil(entry, () => entry.received.length >= count, `${count} frames in room ${name}`);
      return [...entry.received];
    },
    /** Waits until the room has accepted `total` connections in all, with `open` of them open now. */
    async waitForConnections(name, total, open) {
      const entry = room(name);
      await waitUntil(
        entry,
        () => entry.connections >= total && entry.clients.size === open,
        `${total} connections (${open} open) in room ${name}`,
      );
      return { total: entry.connections, open: entry.clients.size };
    },
    /** Cuts every connection of the room without a close handshake, like a network failure. */
    async drop(name) {
      const entry = room(name);
      const sockets = [...entry.clients];
      for (const socket of sockets) socket.terminate();
      await waitUntil(entry, () => entry.clients.size === 0, `room ${name} to drop its clients`);
      return sockets.length;
    },
    /** Closes every connection of the room with a close handshake carrying `code` and `reason`. */
    async closeWith(name, code, reason = "") {
      const entry = room(name);
      for (const socket of entry.clients) socket.close(code, reason);
      await waitUntil(entry, () => entry.clients.size === 0, `room ${name} to close its clients`);
      return code;
    },
    /** Sends each frame to every client of the room, as text (or binary when `binary`). */
    send(name, frames, binary = false) {
      const clients = [...room(name).clients];
      for (const socket of clients) {
        for (const frame of frames) socket.send(binary ? Buffer.from(frame, "utf8") : frame, { binary });
      }
      return clients.length;
    },
    async close() {
      for (const socket of server.clients) socket.terminate();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The wtr plugin: starts the server with the test runner; commands are named "ws-server:<call>". */
export function wsServerPlugin() {
  /** @type {Awaited<ReturnType<typeof startWsTestServer>> | undefined} */
  let server;
  return {
    name: "pi-ws-server",
    async serverStart() {
      server = await startWsTestServer();
    },
    async serverStop() {
      await server?.close();
    },
    async executeCommand({ command, payload }) {
      if (!command.startsWith("ws-server:") || !server) return undefined;
      const p = /** @type {any} */ (payload ?? {});
      switch (command) {
        case "ws-server:url":
          return server.url(p.room);
        case "ws-server:received":
          return server.received(p.room);
        case "ws-server:wait-for-received":
          return server.waitForReceived(p.room, p.count);
        case "ws-server:wait-for-connections":
          return server.waitForConnections(p.room, p.total, p.open);
        case "ws-server:connections":
          return server.connections(p.room);
        case "ws-server:drop":
          return server.drop(p.room);
        case "ws-server:close-with":
          return server.closeWith(p.room, p.code, p.reason);
        case "ws-server:send":
          return server.send(p.room, p.frames, p.binary === true);
        default:
          throw new Error(`Unknown ws-server command ${command}`);
      }
    },
  };
}
