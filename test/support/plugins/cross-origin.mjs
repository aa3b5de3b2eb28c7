// Two tiny static servers on 127.0.0.1 (each its own port, so each its own origin, and neither the test page's
// http://localhost:<wtr port>) serving test/fixtures/transports/*.html, for the postMessage transport's
// cross-origin tests. Command "cross-origin:origins" returns { peer, foreign }.

import { once } from "node:events";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";

const FIXTURES = new URL("../../fixtures/transports/", import.meta.url);

async function serveFixtures(request, response) {
  const name = new URL(request.url ?? "/", "http://x").pathname.slice(1);
  if (!/^[a-z-]+\.html$/.test(name)) {
    response.writeHead(404).end();
    return;
  }
  try {
    const body = await readFile(new URL(name, FIXTURES));
    response.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(body);
  } catch {
    response.writeHead(404).end();
  }
}

async function listen() {
  const server = createServer((request, response) => void serveFixtures(request, response));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  return { server, origin: `http://127.0.0.1:${port}` };
}

export function crossOriginPlugin() {
  /** @type {{ server: import("node:http").Server, origin: string }[]} */
  let servers = [];
  return {
    name: "pi-cross-origin",
    async serverStart() {
      servers = [await listen(), await listen()];
    },
    async serverStop() {
      await Promise.all(servers.map(({ server }) => new Promise((resolve) => server.close(resolve))));
    },
    executeCommand({ command }) {
      if (command !== "cross-origin:origins") return undefined;
      return { peer: servers[0]?.origin, foreign: servers[1]?.origin };
    },
  };
}
