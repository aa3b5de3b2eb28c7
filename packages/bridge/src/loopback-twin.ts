/**
 * The other loopback address. `localhost` names both 127.0.0.1 and ::1, and browsers try either (often ::1
 * first), so a bridge on 127.0.0.1 alone leaves [::1] at its port to anyone: another local user's program
 * listening there would receive what a page at `http://localhost:PORT/` sends, the token included. So a bridge
 * bound to one loopback address also holds the other at the same port and hands those connections to the same
 * server. If another program holds it already, the bridge warns; a machine without it (no IPv6) needs nothing.
 */
import type { Server } from "node:http";
import { type AddressInfo, createServer, type Server as NetServer } from "node:net";

const TWINS: Readonly<Record<string, string>> = { "127.0.0.1": "::1", "::1": "127.0.0.1" };

/** Listens on the loopback twin of `server`'s address; resolves with that listener, or undefined when there is none. */
export async function listenOnLoopbackTwin(
  server: Server,
  maxConnections: number,
  log: (line: string) => void,
): Promise<NetServer | undefined> {
  const { address, port } = server.address() as AddressInfo;
  const twin = TWINS[address];
  if (twin === undefined) return undefined;
  const side = createServer((socket) => server.emit("connection", socket));
  side.maxConnections = maxConnections;
  try {
    await new Promise<void>((resolve, reject) => {
      side.once("error", reject);
      side.listen({ port, host: twin, ipv6Only: true }, () => {
        side.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") {
      const shown = twin.includes(":") ? `[${twin}]` : twin;
      log(
        `[pi-bridge] WARNING: another program listens on ${shown}:${port}; http://localhost:${port}/ may reach it instead of the bridge. Use the printed ${address} address only.`,
      );
    }
    return undefined;
  }
  side.on("error", (error) => log(`[pi-bridge] server error on ${twin} (ignored): ${error.message}`));
  return side;
}
