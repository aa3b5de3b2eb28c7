/**
 * The bridge of the soak test, in a process of its own so that its memory and event loop are measured alone: the
 * fake agent behind it, room for the soak's clients. Prints `{"url":…}` once listening, then answers lines on
 * stdin: `stats` (after two garbage collections: RSS, heap, clients, event-loop delay since the last `reset`),
 * `reset` (starts the event-loop delay histogram over), `exit`.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { startBridge } from "../../src/index.js";
import { fakeAgent } from "./harness.js";

const maxClients = Number(process.argv[2] ?? 250);
const bridge = await startBridge({ port: 0, agent: fakeAgent(), log: () => {}, maxClients });
await bridge.agentStarted();
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
process.stdout.write(`${JSON.stringify({ url: bridge.url })}\n`);

for await (const line of createInterface({ input: process.stdin })) {
  if (line === "stats") {
    gc();
    gc();
    const memory = process.memoryUsage();
    const figures = {
      rss: memory.rss,
      heapUsed: memory.heapUsed,
      clients: bridge.clientCount,
      agentPid: bridge.agentPid,
      delayP99Ms: delay.percentile(99) / 1e6,
      delayMaxMs: delay.max / 1e6,
    };
    process.stdout.write(`${JSON.stringify(figures)}\n`);
  } else if (line === "reset") {
    delay.reset();
  } else if (line === "exit") {
    await bridge.close();
    process.exit(0);
  }
}
