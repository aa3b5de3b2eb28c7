// The demo, in one command (scripts/demo.sh builds first): the bridge with a real pi running the showcase
// extension, and the demo app served by Vite. `--gallery` serves the gallery and playground with no agent.
// `--isolated` runs pi with a temporary HOME, so none of your pi settings, keys or extensions are used.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { defaultAgentCommand, type RunningBridge, startBridge } from "@pi-elements/bridge";
import { createServer } from "vite";

const { values } = parseArgs({
  options: {
    gallery: { type: "boolean", default: false },
    isolated: { type: "boolean", default: false },
    port: { type: "string", default: "5173" },
    "bridge-port": { type: "string", default: "8787" },
  },
});

const root = fileURLToPath(new URL("..", import.meta.url));
const showcase = join(root, "demo/showcase/pi-extension.ts");

const vite = await createServer({
  configFile: join(root, "demo/vite.config.ts"),
  server: { port: Number(values.port) },
});
await vite.listen();
const pageUrl = vite.resolvedUrls?.local[0] ?? `http://127.0.0.1:${values.port}/`;

let bridge: RunningBridge | undefined;
if (!values.gallery) {
  const pi = defaultAgentCommand(root);
  console.error(`[bridge] agent: ${pi.description}`);
  const env = { ...process.env };
  if (values.isolated) {
    const home = mkdtempSync(join(tmpdir(), "pi-elements-demo-"));
    Object.assign(env, { HOME: home, PI_CODING_AGENT_DIR: join(home, "agent") });
  }
  const options = {
    agent: { command: pi.command, args: [...pi.args, "--no-session", "-e", showcase] },
    cwd: root,
    env,
    log: (line: string) => console.error(`[bridge] ${line}`),
  };
  try {
    bridge = await startBridge({ ...options, port: Number(values["bridge-port"]) });
  } catch {
    bridge = await startBridge({ ...options, port: 0 }); // the port was taken: pick a free one
  }
}

console.log("");
console.log(`  pi-elements demo`);
console.log(`  Gallery and playground:  ${pageUrl}`);
if (bridge) {
  console.log(`  Live page with real pi:  ${pageUrl}?bridge=${encodeURIComponent(bridge.url)}#/live`);
  console.log(`  (the bridge token is in that link; the bridge only accepts loopback pages)`);
}
console.log(`  Ctrl+C stops everything.`);
console.log("");

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await Promise.allSettled([bridge?.close(), vite.close()]);
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
