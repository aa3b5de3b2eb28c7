/**
 * Bridge throughput and added latency, on loopback, against a plain `ws` relay of the same bytes in the same run.
 *
 * Three processes per path: a stream agent (a node script that writes a recorded pi-like stdout when told to), the
 * relay (the real `pi-bridge` CLI, or a minimal `ws` server that pipes stdout chunks to its clients as binary
 * frames and nothing else), and this process as the WebSocket client. Both relays run as plain JavaScript under
 * plain `node`, as they ship: the bridge's CLI is compiled with esbuild first (its `ws` stays the installed package
 * the baseline uses too). Run through a TypeScript loader (tsx) instead, the bridge process spent some 20–30 ms
 * more CPU per pass than the same code compiled, mostly in extra garbage collections: a cost of the loader, which
 * `pi-bridge` (its `dist/cli.js`) never pays. The client does the same work on both paths:
 * it counts LF bytes per frame (throughput) or parses the frames (latency).
 *
 * - Throughput: the agent writes core-stream.ts's seeded pi stream (~45,000 records, mostly ~1.7 KB
 *   message_updates, 5% extension-UI requests, one 2,000-setStatus burst), chunk by chunk with backpressure, and
 *   the client times from its request to the last record. A round is four passes in mirrored order, bridge relay
 *   relay bridge (the next round relay bridge bridge relay), so a load that rises or falls steadily during the round
 *   weighs on both paths alike; its ratio is bridge rate ÷ relay rate over the round's two passes each. `relayRatio`
 *   is the median of the rounds' ratios, since the shared 2-core host's load swings a lot (by 3x within seconds).
 * - Latency: the agent writes timestamped records (CLOCK_MONOTONIC via process.hrtime, shared by all processes of
 *   the host) one every 2 ms; the client subtracts the stamp from its arrival time. The bridge's added latency is
 *   its percentile minus the relay's, from interleaved samples.
 * - Soak: the bridge node tests' soak (packages/bridge/test/support/soak.ts; BRIDGE_SOAK_MS, default a minute):
 *   its bridge's RSS and heap growth (after garbage collection, before and after) and its event-loop delay.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import WebSocket from "ws";
import { runSoak } from "../packages/bridge/test/support/soak.ts";
import { generateStream } from "./core-stream.ts";

export const goals = { relayRatio: { min: 0.8 }, addedLatencyMsP99: { max: 5 } };

const ROUNDS = 11;
const LATENCY_ROUNDS = 6;
const PINGS_PER_ROUND = 300;
const PING_GAP_MS = 2;
const CLI = fileURLToPath(new URL("../packages/bridge/src/cli.ts", import.meta.url));
const WS_MODULE = createRequire(import.meta.url).resolve("ws");
/** The bridge package's own `ws` (ESM entry), imported by the compiled CLI from where it is installed. */
const BRIDGE_WS_MODULE = createRequire(CLI)
  .resolve("ws")
  .replace(/index\.js$/, "wrapper.mjs");

/** Compiles the bridge's CLI to one JavaScript file in `dir`, `ws` left external; returns its path. */
async function compileBridge(dir: string): Promise<string> {
  const outfile = join(dir, "pi-bridge.mjs");
  await build({
    entryPoints: [CLI],
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    logLevel: "warning",
    plugins: [
      {
        name: "installed-ws",
        setup(plugin) {
          plugin.onResolve({ filter: /^ws$/ }, () => ({ path: pathToFileURL(BRIDGE_WS_MODULE).href, external: true }));
        },
      },
    ],
  });
  return outfile;
}

/** The stream agent: `flood` writes the recorded stream, `ping N GAP` writes N timestamped records GAP ms apart. */
const AGENT_SCRIPT = `
const { readFileSync } = require("node:fs");
const bytes = readFileSync(process.argv[1]);
const ends = JSON.parse(readFileSync(process.argv[2], "utf8"));
const done = Buffer.from('{"type":"bench_done"}\\n');
let pending = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (text) => {
  pending += text;
  let lf;
  while ((lf = pending.indexOf("\\n")) !== -1) {
    const line = pending.slice(0, lf);
    pending = pending.slice(lf + 1);
    const message = JSON.parse(line).message || "";
    if (message === "flood") flood();
    else if (message.startsWith("ping ")) ping(...message.split(" ").slice(1).map(Number));
  }
});
process.stdin.on("end", () => process.exit(0));
function flood() {
  let i = 0, start = 0;
  const next = () => {
    while (i < ends.length) {
      const ok = process.stdout.write(bytes.subarray(start, ends[i]));
      start = ends[i++];
      if (!ok) return process.stdout.once("drain", next);
    }
    process.stdout.write(done);
  };
  next();
}
function ping(count, gap) {
  let n = 0;
  const tick = () => {
    process.stdout.write('{"type":"bench_ping","t":' + process.hrtime.bigint() + '}\\n');
    if (++n < count) setTimeout(tick, gap);
    else setTimeout(() => process.stdout.write(done), gap);
  };
  tick();
}
`;

/** The baseline: a ws server that spawns the agent and relays its stdout chunks as they come, nothing else. */
const RELAY_SCRIPT = `
const { spawn } = require("node:child_process");
const { WebSocketServer } = require(${JSON.stringify(WS_MODULE)});
const [agentArgs] = [JSON.parse(process.argv[1])];
const agent = spawn(process.execPath, agentArgs, { stdio: ["pipe", "pipe", "inherit"] });
const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 }, () => {
  process.stdout.write("ws://127.0.0.1:" + wss.address().port + "/\\n");
});
agent.stdout.on("data", (chunk) => {
  for (const client of wss.clients) client.send(chunk, { binary: true });
});
wss.on("connection", (client) => client.on("message", (data) => agent.stdin.write(data.toString() + "\\n")));
process.on("SIGTERM", () => { agent.kill(); process.exit(0); });
`;

interface Path {
  name: "bridge" | "relay";
  process: ChildProcess;
  socket: WebSocket;
  onFrame: (data: Buffer) => void;
}

async function startPath(name: Path["name"], agentArgs: string[], bridgeCli: string): Promise<Path> {
  const child =
    name === "bridge"
      ? spawn(
          process.execPath,
          [
            // BENCH_BRIDGE_CPU_PROF=<dir>: the bridge process writes a V8 CPU profile there when it exits.
            ...(process.env.BENCH_BRIDGE_CPU_PROF
              ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_BRIDGE_CPU_PROF}`]
              : []),
            bridgeCli,
            "--port",
            "0",
            "--no-token",
            "--",
            process.execPath,
            ...agentArgs,
          ],
          { stdio: ["ignore", "pipe", "ignore"] },
        )
      : spawn(process.execPath, ["-e", RELAY_SCRIPT, JSON.stringify(agentArgs)], {
          stdio: ["ignore", "pipe", "inherit"],
        });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.setEncoding("utf8").on("data", (text: string) => {
      out += text;
      if (out.includes("\n")) resolve(out.split("\n")[0] as string);
    });
    child.once("exit", (code) => reject(new Error(`${name} exited with ${code} before listening`)));
  });
  // The client's work must not differ between the paths: ws would check the bridge's text frames for UTF-8 (the
  // bridge already guarantees it) but not the relay's binary ones, so it checks neither.
  const socket = new WebSocket(url, { perMessageDeflate: false, skipUTF8Validation: true });
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  const path: Path = { name, process: child, socket, onFrame: () => {} };
  socket.on("message", (data: Buffer) => path.onFrame(data));
  return path;
}

function command(path: Path, message: string): void {
  path.socket.send(JSON.stringify({ type: "prompt", message }));
}

/** Sends `flood` and resolves with records per second once all `expected` records (and the end mark) arrived. */
function floodRound(path: Path, expected: number): Promise<number> {
  return new Promise((resolve) => {
    let lines = 0;
    const start = process.hrtime.bigint();
    path.onFrame = (data) => {
      let at = data.indexOf(10);
      while (at !== -1) {
        lines++;
        at = data.indexOf(10, at + 1);
      }
      if (lines >= expected + 1) {
        path.onFrame = () => {};
        const seconds = Number(process.hrtime.bigint() - start) / 1e9;
        resolve(expected / seconds);
      }
    };
    command(path, "flood");
  });
}

/** Sends `ping` and resolves with each record's transit time in ms. */
function pingRound(path: Path): Promise<number[]> {
  return new Promise((resolve) => {
    const samples: number[] = [];
    path.onFrame = (data) => {
      const now = process.hrtime.bigint();
      for (const line of data.toString("utf8").split("\n")) {
        if (line === "") continue;
        const record = JSON.parse(line) as { type: string; t?: number };
        if (record.type === "bench_ping")
          samples.push(Number(now - BigInt(line.slice(line.indexOf('"t":') + 4, -1))) / 1e6);
        if (record.type === "bench_done") {
          path.onFrame = () => {};
          resolve(samples);
        }
      }
    };
    command(path, `ping ${PINGS_PER_ROUND} ${PING_GAP_MS}`);
  });
}

/** User + system CPU time of a process in ms (at the usual 100 ticks/s), or NaN off Linux. */
function cpuMs(pid: number): number {
  if (!existsSync(`/proc/${pid}/stat`)) return Number.NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

const median = (values: number[]) => percentile(values, 50);
const round3 = (value: number) => Math.round(value * 1000) / 1000;

export async function run(): Promise<object> {
  const stream = generateStream({ seed: 20261130, messages: 45_000, burstSize: 2000 });
  const dir = mkdtempSync(join(tmpdir(), "pi-bridge-bench-"));
  writeFileSync(join(dir, "stream.bin"), stream.bytes);
  writeFileSync(join(dir, "ends.json"), JSON.stringify(stream.chunkEnds));
  const agentArgs = ["-e", AGENT_SCRIPT, join(dir, "stream.bin"), join(dir, "ends.json")];
  const paths: Path[] = [];
  try {
    const bridgeCli = await compileBridge(dir);
    paths.push(await startPath("bridge", agentArgs, bridgeCli), await startPath("relay", agentArgs, bridgeCli));
    const [bridge, relay] = paths as [Path, Path];

    // Warm-up: one untimed round each.
    await floodRound(bridge, stream.messages);
    await floodRound(relay, stream.messages);
    const bridgeRates: number[] = [];
    const relayRates: number[] = [];
    const ratios: number[] = [];
    const bridgeCpu: number[] = [];
    const relayCpu: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? [bridge, relay, relay, bridge] : [relay, bridge, bridge, relay];
      const seconds = { bridge: 0, relay: 0 };
      for (const path of order) {
        const before = cpuMs(path.process.pid as number);
        seconds[path.name] += stream.messages / (await floodRound(path, stream.messages));
        (path === bridge ? bridgeCpu : relayCpu).push(cpuMs(path.process.pid as number) - before);
      }
      const bridgeRate = (2 * stream.messages) / seconds.bridge;
      const relayRate = (2 * stream.messages) / seconds.relay;
      bridgeRates.push(bridgeRate);
      relayRates.push(relayRate);
      ratios.push(bridgeRate / relayRate);
    }

    const bridgeLatency: number[] = [];
    const relayLatency: number[] = [];
    await pingRound(bridge);
    await pingRound(relay);
    for (let round = 0; round < LATENCY_ROUNDS; round++) {
      const order = round % 2 === 0 ? [bridge, relay] : [relay, bridge];
      for (const path of order) (path === bridge ? bridgeLatency : relayLatency).push(...(await pingRound(path)));
    }

    // The soak of the bridge's node tests (200 clients coming and going for a minute against a bursting agent),
    // after the relays are stopped: its bridge's memory and event-loop delay.
    for (const path of paths.splice(0)) {
      path.socket.terminate();
      path.process.kill("SIGTERM");
    }
    const soak = await runSoak({ durationMs: Number(process.env.BRIDGE_SOAK_MS ?? 60_000), clients: 200 });
    const mib = (bytes: number) => Math.round((bytes / (1024 * 1024)) * 10) / 10;

    return {
      relayRatio: round3(median(ratios)),
      soakRssGrowthMiB: mib(soak.after.rss - soak.before.rss),
      soakHeapGrowthMiB: mib(soak.after.heapUsed - soak.before.heapUsed),
      soakEventLoopDelayP99Ms: round3(soak.during.delayP99Ms),
      soakEventLoopDelayMaxMs: round3(soak.during.delayMaxMs),
      soak: {
        durationMs: soak.durationMs,
        clientSessions: soak.clientSessions,
        commandsSent: soak.commandsSent,
        commandsConfirmed: soak.commandsConfirmed,
        dialogs: soak.dialogs,
        dialogsAnsweredOnce: soak.answersPerDialog.filter((count) => count === 1).length,
        rssMiB: { before: mib(soak.before.rss), after: mib(soak.after.rss), afterClientsLeft: mib(soak.during.rss) },
      },
      addedLatencyMsP50: round3(Math.max(0, median(bridgeLatency) - median(relayLatency))),
      addedLatencyMsP99: round3(Math.max(0, percentile(bridgeLatency, 99) - percentile(relayLatency, 99))),
      messagesPerSecond: Math.round(median(bridgeRates)),
      relayMessagesPerSecond: Math.round(median(relayRates)),
      // CPU time of the relaying process per pass (Linux /proc, 10 ms ticks): less sensitive to the host's load.
      cpuMsPerPass: { bridge: median(bridgeCpu), relay: median(relayCpu) },
      latencyMs: {
        bridge: { p50: round3(median(bridgeLatency)), p99: round3(percentile(bridgeLatency, 99)) },
        relay: { p50: round3(median(relayLatency)), p99: round3(percentile(relayLatency, 99)) },
      },
      stream: { records: stream.messages, bytes: stream.bytes.length, chunks: stream.chunkEnds.length },
      rounds: { ratios: ratios.map(round3), samplesPerPath: bridgeLatency.length },
    };
  } finally {
    for (const path of paths) {
      path.socket.terminate();
      path.process.kill("SIGTERM");
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
