// Serves the demo with Vite. (The gallery, playground and live page arrive with the demo issue.)
import { createServer } from "vite";

const server = await createServer({
  root: new URL("../demo/", import.meta.url).pathname,
  server: { host: "127.0.0.1" },
});
await server.listen();
server.printUrls();
