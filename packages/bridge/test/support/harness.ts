/**
 * Shared pieces of the bridge's node tests: a bridge around the fake agent, a WebSocket client that collects
 * records and lets a test wait for the one it expects, and a controlled clock.
 */
import assert from "node:assert/strict";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { WAIT_LIMIT_MS } from "../../../../test/support/wait-for.js";
import { type BridgeOptions, type RunningBridge, startBridge } from "../../src/index.js";

export const FAKE_AGENT = fileURLToPath(new URL("./fake-agent.mjs", import.meta.url));

export type Rec = Record<string, unknown> & { type: string };

export function fakeAgent(...flags: string[]): NonNullable<BridgeOptions["agent"]> {
  return { command: process.execPath, args: [FAKE_AGENT, ...flags] };
}

/** A bridge around the fake agent, quiet, on a free port; `logs` collects what it would have printed. */
export async function startFakeBridge(
  options: BridgeOptions = {},
  ...flags: string[]
): Promise<RunningBridge & { logs: string[] }> {
  const logs: string[] = [];
  const bridge = await startBridge({
    port: 0,
    agent: fakeAgent(...flags),
    log: (line) => logs.push(line),
    stopGraceMs: 1000,
    ...options,
  });
  await bridge.agentStarted();
  return Object.assign(bridge, { logs });
}

/** A relayed line as a record; one that is not JSON (the agent may write anything) becomes `not_json`. */
function parseRecord(line: string): Rec {
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Rec;
  } catch {
    // Falls through.
  }
  return { type: "not_json", text: line };
}

export class TestClient {
  readonly socket: WebSocket;
  /** Every record received, in order. */
  readonly records: Rec[] = [];
  /** Every frame received, as text. */
  readonly frames: string[] = [];
  readonly opened: Promise<void>;
  /** Resolves with the close code and reason. */
  readonly closed: Promise<{ code: number; reason: string }>;
  /**
   * Resolves with the HTTP status when the handshake is refused; with 101 when it was accepted instead, and 0 when
   * the connection failed without an answer, so a test expecting a refusal fails rather than waits forever.
   */
  readonly refused: Promise<number>;
  /**
   * How the bridge answered: the HTTP status of a refused handshake; the close code of a connection it closed before
   * sending anything (a token refusal is answered so, with 4401, TOKEN_REFUSED_CLOSE_CODE); 101 once it sent a
   * message on an open connection (the replay); 0 when the connection failed with no answer.
   */
  readonly answer: Promise<number>;
  #waiters: Array<() => void> = [];

  constructor(url: string, options: WebSocket.ClientOptions = {}) {
    this.socket = new WebSocket(url, options);
    this.opened = new Promise((resolve, reject) => {
      this.socket.once("open", () => resolve());
      this.socket.once("error", reject);
    });
    this.refused = new Promise((resolve) => {
      this.socket.once("unexpected-response", (_request, response) => {
        resolve(response.statusCode ?? 0);
        this.socket.terminate();
      });
      this.socket.once("open", () => resolve(101));
      this.socket.once("error", () => resolve(0));
    });
    this.answer = new Promise((resolve) => {
      this.socket.once("unexpected-response", (_request, response) => resolve(response.statusCode ?? 0));
      this.socket.once("message", () => resolve(101));
      this.socket.once("close", (code) => resolve(code));
      this.socket.once("error", () => resolve(0));
    });
    // Keeps a refused handshake from surfacing as an unhandled rejection when a test only awaits `refused`.
    this.opened.catch(() => {});
    this.closed = new Promise((resolve) => {
      this.socket.once("close", (code, reason) => resolve({ code, reason: reason.toString() }));
    });
    this.socket.on("error", () => {});
    this.socket.on("message", (data) => {
      const text = data.toString();
      this.frames.push(text);
      for (const line of text.split("\n")) if (line !== "") this.records.push(parseRecord(line));
      for (const wake of this.#waiters.splice(0)) wake();
    });
  }

  static async connect(url: string, options?: WebSocket.ClientOptions): Promise<TestClient> {
    const client = new TestClient(url, options);
    await client.opened;
    return client;
  }

  send(value: unknown): void {
    this.socket.send(typeof value === "string" ? value : JSON.stringify(value));
  }

  /** Tells the fake agent to do something (see fake-agent.mjs). */
  directive(text: string): void {
    this.send({ type: "prompt", message: `!${text}` });
  }

  /** Waits for the first record, from `from` on, that matches; returns it. */
  async next(match: (record: Rec) => boolean, from = 0, what = "a matching record"): Promise<Rec> {
    const deadline = Date.now() + WAIT_LIMIT_MS;
    for (;;) {
      const found = this.records.slice(from).find(match);
      if (found) return found;
      if (Date.now() > deadline) {
        throw new Error(`Timed out waiting for ${what}; got ${JSON.stringify(this.records.slice(-5))}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits until the agent reports receiving a line that satisfies `match` (parsed). */
  received(match: (line: Rec) => boolean, from = 0): Promise<Rec> {
    return this.next(
      (record) => record.type === "received" && match(JSON.parse(record.line as string) as Rec),
      from,
      "a line at the agent",
    );
  }

  /** The parsed lines the agent reported receiving so far. */
  agentLines(): Rec[] {
    return this.records.filter((r) => r.type === "received").map((r) => JSON.parse(r.line as string) as Rec);
  }

  close(): Promise<{ code: number; reason: string }> {
    this.socket.close();
    return this.closed;
  }
}

/** Kills a process the test left behind (an orphan in a session of its own), if it is still there. */
export function killOrphan(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

export { ManualClock } from "../../../../test/support/manual-clock.js";

/** A URL with the token replaced (or removed with `undefined`). */
export function withToken(url: string, token: string | undefined): string {
  const u = new URL(url);
  if (token === undefined) u.searchParams.delete("token");
  else u.searchParams.set("token", token);
  return u.toString();
}

export function uiRequest(id: string, method: string, fields: Record<string, unknown> = {}): Rec {
  return { type: "extension_ui_request", id, method, ...fields };
}

/** Sends raw bytes to the bridge's port; resolves with everything it answered once it closed the connection. */
export function rawExchange(port: number, bytes: string | Buffer, { end = true } = {}): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString("latin1");
    });
    socket.on("error", () => {});
    socket.on("close", () => resolve(answer));
    // A bridge that neither answers nor closes fails the test instead of hanging it.
    socket.setTimeout(10_000, () => {
      answer += "(no answer: timed out)";
      socket.destroy();
    });
    socket.write(bytes);
    if (end) socket.end();
  });
}

/** The bridge still serves: its first agent runs, and a new client gets hello and a working round trip. */
export async function assertStillServing(bridge: RunningBridge, pid: number): Promise<void> {
  assert.equal(bridge.agentPid, pid, "the agent was not restarted or lost");
  const client = await TestClient.connect(bridge.url);
  await client.next((r) => r.type === "pi-elements/hello");
  client.send({ type: "get_state", id: "alive" });
  await client.received((line) => line.id === "alive");
  await client.close();
}

/**
 * A raw TCP connection to the bridge that never closes its own side (`allowHalfOpen`), as a hostile peer that
 * sends no FIN; `answer` collects what the bridge sent, `ended` resolves when the bridge closed its side.
 */
export class SilentPeer {
  readonly socket: ReturnType<typeof connect>;
  answer = "";
  readonly connected: Promise<void>;
  readonly ended: Promise<void>;
  bridgeEnded = false;

  constructor(port: number, bytes?: string) {
    this.socket = connect({ port, host: "127.0.0.1", allowHalfOpen: true });
    this.socket.on("error", () => {});
    this.socket.on("data", (chunk: Buffer) => {
      this.answer += chunk.toString("latin1");
    });
    this.connected = new Promise((resolve) => this.socket.once("connect", () => resolve()));
    this.ended = new Promise((resolve) =>
      this.socket.once("end", () => {
        this.bridgeEnded = true;
        resolve();
      }),
    );
    if (bytes !== undefined) this.socket.write(bytes);
  }

  destroy(): void {
    this.socket.destroy();
  }
}
