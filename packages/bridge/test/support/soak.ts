/**
 * The bridge's soak (issue #9): for a bounded time, up to `clients` WebSocket clients at once connect, send a
 * command, wait for the agent to have received it, answer every dialog they see, and leave, while a driver makes
 * the fake agent burst statuses and open dialogs. The bridge runs in its own process (soak-bridge.ts) so its RSS
 * and event-loop delay are its own. Used by the soak test (which asserts) and by `pnpm bench bridge` (which
 * records the figures).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface, type Interface } from "node:readline";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";

const SOAK_BRIDGE = fileURLToPath(new URL("./soak-bridge.ts", import.meta.url));

export interface SoakOptions {
  /** How long clients keep coming. Default 60 s. */
  durationMs?: number;
  /** Clients connected at once. Default 200. */
  clients?: number;
  /** Statuses per burst, one burst a second. Default 1000. */
  burst?: number;
}

export interface BridgeStats {
  rss: number;
  heapUsed: number;
  clients: number;
  agentPid: number | undefined;
  delayP99Ms: number;
  delayMaxMs: number;
}

export interface SoakResult {
  durationMs: number;
  clientSessions: number;
  /** Connections the bridge refused or that failed before opening. */
  refused: number;
  commandsSent: number;
  /** Commands whose arrival at the agent the sender saw before it left. */
  commandsConfirmed: number;
  dialogs: number;
  /** Per dialog, how many answers reached the agent. */
  answersPerDialog: number[];
  before: BridgeStats;
  after: BridgeStats;
  /** Event-loop delay while the clients came and went. */
  during: BridgeStats;
}

class BridgeProcess {
  readonly child: ChildProcess;
  readonly #lines: Interface;
  readonly #waiting: Array<(line: string) => void> = [];

  constructor(maxClients: number) {
    // SOAK_BRIDGE_NODE_ARGS: extra Node flags for the bridge's process, e.g. "--cpu-prof" to profile it.
    const extra = (process.env.SOAK_BRIDGE_NODE_ARGS ?? "").split(" ").filter(Boolean);
    const args = ["--expose-gc", ...extra, "--import", "tsx", SOAK_BRIDGE, String(maxClients)];
    this.child = spawn(process.execPath, args, {
      stdio: ["pipe", "pipe", "inherit"],
    });
    this.#lines = createInterface({ input: this.child.stdout as NonNullable<ChildProcess["stdout"]> });
    this.#lines.on("line", (line) => this.#waiting.shift()?.(line));
  }

  next(): Promise<string> {
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  async stats(): Promise<BridgeStats> {
    const answer = this.next();
    this.child.stdin?.write("stats\n");
    return JSON.parse(await answer) as BridgeStats;
  }

  command(line: string): void {
    this.child.stdin?.write(`${line}\n`);
  }

  async exit(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.command("exit");
    await exited;
  }
}

function open(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once("open", () => resolve(socket));
    socket.once("error", reject);
    socket.once("unexpected-response", () => reject(new Error("refused")));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runSoak(options: SoakOptions = {}): Promise<SoakResult> {
  const durationMs = options.durationMs ?? 60_000;
  const target = options.clients ?? 200;
  const burst = options.burst ?? 1000;
  const bridge = new BridgeProcess(target + 50);
  const { url } = JSON.parse(await bridge.next()) as { url: string };
  try {
    // The driver stays for the whole run: it tells the agent what to do and counts what reaches it.
    const driver = await open(url);
    const answers = new Map<string, number>();
    const received = new Set<string>();
    driver.on("message", (data) => {
      for (const line of data.toString().split("\n")) {
        if (!line.startsWith('{"type":"received"')) continue;
        const inner = JSON.parse((JSON.parse(line) as { line: string }).line) as { type: string; id?: string };
        if (inner.type === "extension_ui_response" && inner.id !== undefined) {
          answers.set(inner.id, (answers.get(inner.id) ?? 0) + 1);
        } else if (inner.id !== undefined) {
          received.add(inner.id);
        }
      }
    });
    const directive = (text: string) => driver.send(JSON.stringify({ type: "prompt", message: `!${text}` }));

    await sleep(500);
    const before = await bridge.stats();
    bridge.command("reset");

    let sessions = 0;
    let refused = 0;
    let sent = 0;
    let confirmed = 0;
    let live = 0;
    const openDialogs = new Set<string>();
    let dialogs = 0;
    const end = Date.now() + durationMs;

    const session = async (n: number) => {
      let socket: WebSocket;
      try {
        socket = await open(url);
      } catch {
        refused++;
        return;
      }
      const id = `soak-c${n}`;
      const answered = new Set<string>();
      await new Promise<void>((resolve) => {
        let leaveTimer: ReturnType<typeof setTimeout> | undefined;
        socket.on("message", (data) => {
          for (const line of data.toString().split("\n")) {
            if (line.includes('"method":"confirm"')) {
              const dialog = JSON.parse(line) as { id: string };
              if (!answered.has(dialog.id)) {
                answered.add(dialog.id);
                socket.send(JSON.stringify({ type: "extension_ui_response", id: dialog.id, confirmed: true }));
              }
            } else if (leaveTimer === undefined && line.startsWith('{"type":"received"') && line.includes(id)) {
              const inner = JSON.parse((JSON.parse(line) as { line: string }).line) as { id?: string };
              if (inner.id === id) {
                confirmed++;
                leaveTimer = setTimeout(() => socket.close(), Math.random() * 1500);
              }
            }
          }
        });
        socket.on("close", () => resolve());
        socket.on("error", () => {});
        socket.send(JSON.stringify({ type: "get_state", id }));
        sent++;
      });
    };

    let lastBurst = 0;
    let lastDialog = 0;
    let n = 0;
    while (Date.now() < end) {
      const now = Date.now();
      if (now - lastBurst >= 1000) {
        directive(`burst ${burst}`);
        lastBurst = now;
      }
      if (now - lastDialog >= 250) {
        dialogs++;
        const dialog = {
          type: "extension_ui_request",
          id: `soak-d${dialogs}`,
          method: "confirm",
          title: "T",
          message: "M",
        };
        openDialogs.add(dialog.id);
        directive(`emit ${JSON.stringify([dialog])}`);
        lastDialog = now;
      }
      while (live < target) {
        live++;
        sessions++;
        void session(n++).finally(() => {
          live--;
        });
      }
      await sleep(20);
    }
    while (live > 0) await sleep(50);
    const during = await bridge.stats();

    // Dialogs opened after the last client left are answered by the driver, through the same bridge.
    for (const id of openDialogs) {
      if (!answers.has(id)) driver.send(JSON.stringify({ type: "extension_ui_response", id, confirmed: true }));
    }
    driver.send(JSON.stringify({ type: "get_state", id: "soak-end" }));
    const deadline = Date.now() + 30_000;
    while (!received.has("soak-end") && Date.now() < deadline) await sleep(50);
    await new Promise<void>((resolve) => {
      driver.once("close", () => resolve());
      driver.close();
    });
    await sleep(200);
    const after = await bridge.stats();
    return {
      durationMs,
      clientSessions: sessions,
      refused,
      commandsSent: sent,
      commandsConfirmed: confirmed,
      dialogs,
      answersPerDialog: [...openDialogs].map((id) => answers.get(id) ?? 0),
      before,
      after,
      during,
    };
  } finally {
    await bridge.exit();
  }
}
