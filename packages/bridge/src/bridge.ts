/**
 * The bridge: one agent process, any number of WebSocket clients.
 *
 * Agent → clients: every stdout read becomes one frame of complete JSONL records, sent to all clients; the UI
 * requests among them also update the bridge's `UiMirror`. Clients → agent: validated commands and the first
 * answer to each pending dialog. A new connection gets `pi-elements/hello` and the replay of the current state.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import type { Clock, PendingDialog } from "@pi-elements/core";
import { type WebSocket, WebSocketServer } from "ws";
import { type AgentCommand, type AgentExitInfo, AgentProcess } from "./agent-process.js";
import { type ClientMessage, CloseCode, parseClientFrame } from "./client-frames.js";
import { defaultAgentCommand } from "./resolve-agent.js";
import { type BackoffOptions, RestartBackoff } from "./restart-backoff.js";
import {
  DEFAULT_ALLOWED_ORIGINS,
  generateToken,
  hostHeaderAllowed,
  isLoopbackHost,
  type OriginRule,
  originAllowed,
  parseOriginRule,
  presentedToken,
  tokenMatches,
} from "./security.js";
import { send, staticFileHandler } from "./static-files.js";
import { UiMirror } from "./ui-mirror.js";

export type RestartPolicy = "never" | "on-request" | "always";

export interface BridgeOptions {
  /** Default 8787; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. Anything but a loopback address needs `allowRemote`. */
  host?: string;
  /** Required to bind a non-loopback address; a warning is logged. */
  allowRemote?: boolean;
  /** The token clients must present. Default: a fresh random one. `false` disables it (not recommended). */
  token?: string | false;
  /** Extra allowed origins (`https://app.example`, `http://host:*`, `null`), added to the loopback ones. */
  allowOrigins?: readonly string[];
  /** The agent command. Default: `pi --mode rpc`, the newest pi installed (see `defaultAgentCommand`). */
  agent?: AgentCommand;
  /** For the default agent: the Node to run pi with. Default: one that satisfies pi's `engines` (see `defaultAgentCommand`). */
  node?: string;
  /** For the default agent: pass `--approve`, so pi (0.79+) loads the project's own `.pi/` extensions and settings. */
  approve?: boolean;
  /** The agent's working directory. Default: the bridge's. */
  cwd?: string;
  /** The agent's environment. Default: the bridge's. */
  env?: NodeJS.ProcessEnv;
  /** A folder served over HTTP on the same port. */
  staticDir?: string;
  /** Default "on-request". */
  restart?: RestartPolicy;
  /** Delays between automatic restarts under "always". */
  restartBackoff?: BackoffOptions;
  /** Largest client frame in bytes; a bigger one disconnects the client with 1009. Default 16 MiB. */
  maxPayload?: number;
  /** Output waiting for one slow client beyond which it is disconnected with 1013. Default 64 MiB. */
  maxClientBacklog?: number;
  /** Milliseconds between SIGTERM and SIGKILL when stopping the agent. Default 3000. */
  stopGraceMs?: number;
  /** Bridge and agent-stderr log lines. Default: written to the bridge's stderr. */
  log?: (line: string) => void;
  /** Time source for dialog deadlines. Default: real time. */
  clock?: Clock;
}

export interface RunningBridge {
  /** `ws://host:port/?token=…` (no query when the token is disabled). */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** Undefined when disabled. */
  readonly token: string | undefined;
  /** The current agent's pid, if one runs. */
  readonly agentPid: number | undefined;
  /** Connected clients. */
  readonly clientCount: number;
  /** Bytes waiting to be written to the agent's stdin. */
  readonly agentBacklog: number;
  /** Resolves when the current agent has started (immediately if it runs). */
  agentStarted(): Promise<number>;
  /** Restarts the agent now (stopping it first if it runs), whatever the policy. */
  restartAgent(): Promise<void>;
  /** Disconnects every client, stops the agent (SIGTERM, then SIGKILL after the grace period) and the server. */
  close(): Promise<void>;
}

const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Bridge messages go out as ordinary JSONL records; a frame is always whole records. */
const record = (value: unknown) => JSON.stringify(value);
const HELLO = record({ type: "pi-elements/hello", protocol: 1 });
/** Replay frames are split at about this size, well under a client's usual 8 MiB frame limit. */
const REPLAY_FRAME_CHARS = 1024 * 1024;

export async function startBridge(options: BridgeOptions = {}): Promise<RunningBridge> {
  const host = options.host ?? "127.0.0.1";
  const loopback = isLoopbackHost(host);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  if (!loopback && !options.allowRemote) {
    throw new Error(`Refusing to bind ${host}: not a loopback address. Pass allowRemote (--allow-remote) to do it.`);
  }
  if (!loopback) {
    log(`[pi-bridge] WARNING: listening on ${host}; anyone who can reach it and has the token controls the agent.`);
  }
  const token = options.token === false ? undefined : (options.token ?? generateToken());
  if (options.token === false) log("[pi-bridge] WARNING: token check disabled; any local program can drive the agent.");
  const originRules: OriginRule[] = [...DEFAULT_ALLOWED_ORIGINS, ...(options.allowOrigins ?? [])].map(parseOriginRule);
  const clock = options.clock ?? realClock;
  const policy = options.restart ?? "on-request";
  const agentCommand = options.agent ?? chooseAgent(options, log);
  const maxClientBacklog = options.maxClientBacklog ?? 64 * 1024 * 1024;
  const staticHandler = options.staticDir === undefined ? undefined : await staticFileHandler(options.staticDir);

  const clients = new Set<WebSocket>();
  /**
   * Sends one text message to every open client but `except`: a string, or whole records given as parts, which go
   * out as the fragments of one message (no copy; a client receives one message either way).
   */
  const broadcast = (message: string | readonly Buffer[], except?: WebSocket) => {
    for (const client of clients) {
      if (client === except || client.readyState !== client.OPEN) continue;
      if (client.bufferedAmount > maxClientBacklog) {
        log(`[pi-bridge] disconnecting a slow client: ${client.bufferedAmount} bytes waiting for it`);
        client.close(CloseCode.tryAgainLater, "too much output waiting: reconnect");
        continue;
      }
      if (typeof message === "string") client.send(message);
      else sendParts(client, message);
    }
  };

  const mirror = new UiMirror({
    clock,
    onExpired: (dialogs) => broadcast(closedFrame(dialogs, "expired")),
  });

  // --- the agent ------------------------------------------------------------------------------------------------
  let agent: AgentProcess | undefined;
  let agentBlocked = false;
  let lastExit: AgentExitInfo | undefined;
  let closing = false;
  let restartTimer: ReturnType<typeof setTimeout> | undefined;
  const backoff = new RestartBackoff(options.restartBackoff);
  let startWaiters: Array<(pid: number) => void> = [];

  const startAgent = () => {
    lastExit = undefined;
    mirror.clear();
    const current: AgentProcess = new AgentProcess({
      ...agentCommand,
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      ...(options.env === undefined ? {} : { env: options.env }),
      onFrame: (parts) => {
        if (current !== agent) return;
        mirror.observeFrame(parts);
        broadcast(parts);
      },
      onStderrLine: (line) => log(`[agent] ${line}`),
      onBackpressure: (blocked) => {
        // Stop reading from clients while the agent cannot keep up; ws then pushes back on them over TCP.
        agentBlocked = blocked;
        for (const client of clients) {
          if (blocked) client.pause();
          else client.resume();
        }
      },
      onExit: (info) => {
        if (current !== agent) return;
        agentExited(info);
      },
    });
    agent = current;
    backoff.started(clock.now());
    const pid = current.pid;
    if (pid !== undefined) {
      log(`[pi-bridge] agent started: ${agentCommand.command} ${agentCommand.args.join(" ")} (pid ${pid})`);
      for (const waiter of startWaiters.splice(0)) waiter(pid);
      // Clients drop the old agent's statuses and widgets: hello, then the (empty) state of the new one.
      broadcast(`${record({ type: "pi-elements/agent_start", pid })}\n${HELLO}\n`);
    }
  };

  const agentExited = (info: AgentExitInfo, autoRestart = true) => {
    lastExit = info;
    const closed = mirror.closeAll();
    log(`[pi-bridge] agent exited (code ${info.code}, signal ${info.signal})`);
    const lines = closed.length > 0 ? closedFrame(closed, "agent_exit") : "";
    broadcast(`${lines}${exitRecord(info)}\n`);
    if (closing || !autoRestart) return;
    if (policy === "always") {
      const delay = backoff.nextDelay(clock.now());
      log(`[pi-bridge] restarting the agent in ${delay} ms`);
      restartTimer = setTimeout(() => {
        restartTimer = undefined;
        if (!closing) startAgent();
      }, delay);
    }
  };

  let restarting: Promise<void> | undefined;
  const restartAgent = (): Promise<void> => {
    restarting ??= (async () => {
      if (restartTimer !== undefined) clearTimeout(restartTimer);
      restartTimer = undefined;
      const previous = agent;
      if (previous?.running) {
        // Detach first, so its exit is reported here and does not schedule an automatic restart.
        agent = undefined;
        agentExited(await previous.stop(options.stopGraceMs), false);
      }
      if (!closing) startAgent();
    })().finally(() => {
      restarting = undefined;
    });
    return restarting;
  };

  // --- clients --------------------------------------------------------------------------------------------------
  const handleMessage = (client: WebSocket, message: ClientMessage) => {
    switch (message.kind) {
      case "command":
        if (agent?.running) {
          agent.write(message.record);
        } else {
          // pi's own failure shape, to the sender only, so a client awaiting the response is not left hanging.
          const { command, id } = message;
          const error = "The agent is not running.";
          client.send(
            `${record({ type: "response", command, success: false, error, ...(id === undefined ? {} : { id }) })}\n`,
          );
        }
        return;
      case "answer": {
        // Checked for every answer of the frame before; "wrong-shape" cannot happen here.
        if (mirror.answer(message.response) !== "forward") return;
        agent?.write(record(message.response));
        // Every client is told, the answering one too: if it answered while disconnected, the replay it got on
        // reconnecting (sent before its queued answer was read) showed the dialog again.
        broadcast(closedFrame([{ id: message.response.id }], "answered"));
        return;
      }
      case "restart":
        if (policy !== "never") void restartAgent();
        return;
    }
  };

  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayload ?? 16 * 1024 * 1024 });
  wss.on("connection", (client: WebSocket) => {
    clients.add(client);
    client.on("close", () => clients.delete(client));
    client.on("error", () => {
      // Oversized frames and protocol errors: ws closes with the right code (1009, 1002); nothing to add.
    });
    client.on("message", (data, isBinary) => {
      if (isBinary) {
        client.close(CloseCode.unsupportedData, "text frames only");
        return;
      }
      const text = rawToString(data);
      if (text === undefined) {
        client.close(CloseCode.invalidPayload, "not UTF-8");
        return;
      }
      const result = parseClientFrame(text);
      if (!result.ok) {
        client.close(result.code, result.reason);
        return;
      }
      // All or nothing: an answer that does not fit its dialog refuses the whole frame before anything is done.
      if (result.messages.some((message) => message.kind === "answer" && mirror.misfits(message.response))) {
        client.close(CloseCode.policyViolation, "answer does not fit the dialog's method");
        return;
      }
      for (const message of result.messages) handleMessage(client, message);
    });
    for (const frame of replayFrames()) client.send(frame);
    if (agentBlocked) client.pause();
  });

  const replayFrames = (): string[] => {
    const records = [HELLO, ...mirror.replay()];
    if (lastExit !== undefined) records.push(exitRecord(lastExit));
    const frames: string[] = [];
    let current = "";
    for (const line of records) {
      if (current.length > 0 && current.length + line.length > REPLAY_FRAME_CHARS) {
        frames.push(current);
        current = "";
      }
      current += `${line}\n`;
    }
    frames.push(current);
    return frames;
  };

  // --- HTTP -----------------------------------------------------------------------------------------------------
  const server: Server = createServer((request, response) => {
    if (loopback && !hostHeaderAllowed(request.headers.host)) {
      send(response, 421, "Misdirected request");
      return;
    }
    if (staticHandler !== undefined) {
      staticHandler(request, response);
      return;
    }
    response.setHeader("Upgrade", "websocket");
    send(response, 426, "This is the pi-bridge WebSocket endpoint.");
  });
  server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const refusal = checkUpgrade(request);
    if (refusal !== undefined) {
      refuse(socket, refusal.status, refusal.text);
      return;
    }
    wss.handleUpgrade(request, socket, head, (client) => wss.emit("connection", client, request));
  });

  const checkUpgrade = (request: IncomingMessage): { status: number; text: string } | undefined => {
    if (loopback && !hostHeaderAllowed(request.headers.host)) return { status: 421, text: "Misdirected Request" };
    const url = new URL(request.url ?? "/", "http://bridge.invalid");
    if (url.pathname !== "/") return { status: 404, text: "Not Found" };
    if (!originAllowed(request.headers.origin, originRules)) return { status: 403, text: "Forbidden" };
    if (token !== undefined && !tokenMatches(presentedToken(url, request.headers.authorization), token)) {
      return { status: 401, text: "Unauthorized" };
    }
    return undefined;
  };

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 8787, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  const url = `ws://${urlHost}:${port}/${token === undefined ? "" : `?token=${encodeURIComponent(token)}`}`;

  startAgent();

  let closed: Promise<void> | undefined;
  return {
    url,
    host,
    port,
    token,
    get agentPid() {
      return agent?.running ? agent.pid : undefined;
    },
    get clientCount() {
      return clients.size;
    },
    get agentBacklog() {
      return agent?.queuedBytes ?? 0;
    },
    agentStarted() {
      const pid = agent?.running ? agent.pid : undefined;
      if (pid !== undefined) return Promise.resolve(pid);
      return new Promise((resolve) => startWaiters.push(resolve));
    },
    restartAgent,
    close() {
      closed ??= (async () => {
        closing = true;
        if (restartTimer !== undefined) clearTimeout(restartTimer);
        startWaiters = [];
        for (const client of clients) client.close(CloseCode.goingAway, "bridge shutting down");
        await agent?.stop(options.stopGraceMs);
        mirror.dispose();
        for (const client of clients) client.terminate();
        wss.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      })();
      return closed;
    },
  };
}

/** The default agent, with a log line saying which pi runs on which Node, and any notes for the user. */
function chooseAgent(options: BridgeOptions, log: (line: string) => void): AgentCommand {
  const choice = defaultAgentCommand(options.cwd, {
    ...(options.node === undefined ? {} : { node: options.node }),
    ...(options.approve === undefined ? {} : { approve: options.approve }),
    ...(options.env === undefined ? {} : { env: options.env }),
  });
  log(`[pi-bridge] agent: ${choice.description}`);
  for (const note of choice.notes) log(`[pi-bridge] note: ${note}`);
  return { command: choice.command, args: choice.args };
}

/** The parts of ws's WebSocket that `sendParts` relies on (ws 8; checked before use, with a public fallback). */
interface WsInternals {
  _socket?: { cork(): void; uncork(): void; write(chunk: Buffer): boolean };
  _sender?: { _state?: unknown; _queue?: unknown[]; _firstFragment?: unknown };
}

/**
 * Sends whole records given as parts as one text message without joining them: one frame header for their total
 * length, then the parts, written with one system call. A copy of every read to join it (or a fragment per part,
 * which the receiving ws joins) measured as much CPU again as the whole relaying. ws would write the same bytes
 * (a server's frames are not masked); this is only done while its sender is idle (nothing queued, not in the
 * middle of a fragmented message), so nothing it sends can interleave. Otherwise the parts go out as the fragments
 * of one message, through ws.
 */
function sendParts(client: WebSocket, parts: readonly Buffer[]): void {
  if (parts.length === 1) {
    client.send(parts[0] as Buffer, { binary: false });
    return;
  }
  const { _socket: socket, _sender: sender } = client as unknown as WsInternals;
  if (socket && sender?._state === 0 && sender._queue?.length === 0 && sender._firstFragment === true) {
    let length = 0;
    for (const part of parts) length += part.length;
    socket.cork();
    socket.write(textFrameHeader(length));
    for (const part of parts) socket.write(part);
    socket.uncork();
    return;
  }
  socket?.cork();
  const lastPart = parts.length - 1;
  for (const [i, part] of parts.entries()) client.send(part, { binary: false, fin: i === lastPart });
  socket?.uncork();
}

/** RFC 6455 header of an unmasked, final text frame (opcode 1) with a payload of `length` bytes. */
export function textFrameHeader(length: number): Buffer {
  if (length < 126) return Buffer.from([0x81, length]);
  if (length < 0x10000) return Buffer.from([0x81, 126, length >> 8, length & 0xff]);
  const header = Buffer.allocUnsafe(10);
  header[0] = 0x81;
  header[1] = 127;
  // A 64-bit length as two 32-bit halves (no BigInt per frame).
  header.writeUInt32BE(Math.floor(length / 0x100000000), 2);
  header.writeUInt32BE(length >>> 0, 6);
  return header;
}

function closedFrame(dialogs: ReadonlyArray<Pick<PendingDialog, "id">>, reason: string): string {
  return dialogs.map((dialog) => `${record({ type: "pi-elements/dialog_closed", id: dialog.id, reason })}\n`).join("");
}

function exitRecord(info: AgentExitInfo): string {
  return record({ type: "pi-elements/agent_exit", code: info.code, signal: info.signal, stderrTail: info.stderrTail });
}

function refuse(socket: Duplex, status: number, text: string): void {
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${text.length + 1}\r\n\r\n${text}\n`,
  );
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** ws hands text frames over as bytes (it has already checked UTF-8 unless told not to). */
function rawToString(data: unknown): string | undefined {
  try {
    if (Buffer.isBuffer(data)) return utf8.decode(data);
    if (Array.isArray(data)) return utf8.decode(Buffer.concat(data as Buffer[]));
    if (data instanceof ArrayBuffer) return utf8.decode(new Uint8Array(data));
  } catch {
    return undefined;
  }
  return undefined;
}
