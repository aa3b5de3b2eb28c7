/**
 * The bridge: one agent process, any number of WebSocket clients.
 *
 * Agent → clients: every stdout read becomes one frame of complete JSONL records, sent to all clients; the UI
 * requests among them also update the bridge's `UiMirror`. Clients → agent: validated commands and the first
 * answer to each pending dialog. A new connection gets `pi-elements/hello` and the replay of the current state.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { type Clock, type PendingDialog, realClock } from "@pi-elements/core";
import { type WebSocket, WebSocketServer } from "ws";
import { type AgentCommand, type AgentExitInfo, AgentProcess } from "./agent-process.js";
import { type ClientMessage, CloseCode, parseClientFrame } from "./client-frames.js";
import { DEFAULT_MAX_JSON_DEPTH } from "./json-depth.js";
import { withoutBridgeRecords } from "./jsonl-frames.js";
import { defaultAgentCommand } from "./resolve-agent.js";
import { type BackoffOptions, RestartBackoff } from "./restart-backoff.js";
import {
  boundHostNames,
  DEFAULT_ALLOWED_ORIGINS,
  generateToken,
  hostHeaderAllowed,
  isLoopbackHost,
  type OriginRule,
  originAllowed,
  parseOriginRule,
  presentedToken,
  requestUrl,
  tokenMatches,
} from "./security.js";
import { send, staticFileHandler } from "./static-files.js";
import { type MirrorLimits, UiMirror } from "./ui-mirror.js";

export type RestartPolicy = "never" | "on-request" | "always";

export interface BridgeOptions {
  /** Default 8787; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. Anything but a loopback address needs `allowRemote`. */
  host?: string;
  /** Required to bind a non-loopback address; a warning is logged. */
  allowRemote?: boolean;
  /**
   * Extra names the `Host` header may give (besides the loopback names and the bound address, or every interface
   * address and the host name for 0.0.0.0 / ::), e.g. the machine's DNS name under `allowRemote`.
   */
  allowHosts?: readonly string[];
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
  /** Largest client message in bytes; a bigger one disconnects the client with 1009. Default 16 MiB. */
  maxPayload?: number;
  /** Most WebSocket clients at once; one more is refused with HTTP 503 at the upgrade. Default 16. */
  maxClients?: number;
  /** Most open TCP connections of any kind (clients, handshakes, static files); more are dropped. Default 256. */
  maxConnections?: number;
  /** Milliseconds an HTTP request (a WebSocket handshake too) may take to arrive whole. Default 10000. */
  handshakeTimeoutMs?: number;
  /**
   * Milliseconds a client has to answer the bridge's ping. A client in the middle of sending a frame cannot, so
   * this is also the longest a frame may take to arrive, and it drops a silent (dead) peer. The bridge pings every
   * half of it; closed with 1008. Default 30000.
   */
  frameTimeoutMs?: number;
  /** Deepest nesting of objects and arrays in a client record (checked before parsing): deeper is 1008. Default 64. */
  maxJsonDepth?: number;
  /** Limits of the UI state the bridge keeps for the replay (see `MirrorLimits`). */
  mirror?: MirrorLimits;
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

/** The commands that send the user's message, and so use up the editor text the agent set. */
const CONSUMES_EDITOR_TEXT = new Set(["prompt", "steer", "follow_up"]);

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
  const hostNames = boundHostNames(host, options.allowHosts);
  const clock = options.clock ?? realClock;
  const policy = options.restart ?? "on-request";
  const agentCommand = options.agent ?? chooseAgent(options, log);
  const maxClientBacklog = options.maxClientBacklog ?? 64 * 1024 * 1024;
  const maxClients = options.maxClients ?? 16;
  const maxJsonDepth = options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
  const frameTimeoutMs = options.frameTimeoutMs ?? 30_000;
  const handshakeTimeoutMs = options.handshakeTimeoutMs ?? 10_000;
  const staticHandler = options.staticDir === undefined ? undefined : await staticFileHandler(options.staticDir);

  /**
   * Runs a listener's body so that nothing it throws leaves it: an exception escaping an event listener would end
   * the process, and with it the agent's stdin.
   */
  const guarded = (what: string, body: () => void, cleanUp?: () => void): void => {
    try {
      body();
    } catch (error) {
      log(`[pi-bridge] error while ${what} (ignored): ${error instanceof Error ? error.message : String(error)}`);
      cleanUp?.();
    }
  };

  const clients = new Set<WebSocket>();
  /**
   * Sends one text message to every open client but `except`: a string, or whole records given as parts, which go
   * out as one message.
   */
  const broadcast = (message: string | readonly Buffer[], except?: WebSocket) => {
    if (message.length === 0) return;
    const data = typeof message === "string" || message.length !== 1 ? joined(message) : (message[0] as Buffer);
    for (const client of clients) {
      if (client === except || client.readyState !== client.OPEN) continue;
      if (client.bufferedAmount > maxClientBacklog) {
        log(`[pi-bridge] disconnecting a slow client: ${client.bufferedAmount} bytes waiting for it`);
        client.close(CloseCode.tryAgainLater, "too much output waiting: reconnect");
        continue;
      }
      client.send(data, { binary: false });
    }
  };

  const mirror = new UiMirror({
    clock,
    onExpired: (dialogs) => guarded("expiring dialogs", () => broadcast(closedFrame(dialogs, "expired"))),
    ...(options.mirror === undefined ? {} : { limits: options.mirror }),
    onLimit: (message) => log(`[pi-bridge] ${message}`),
  });

  // --- the agent ------------------------------------------------------------------------------------------------
  let agent: AgentProcess | undefined;
  let agentBlocked = false;
  let lastExit: AgentExitInfo | undefined;
  let closing = false;
  let restartTimer: ReturnType<typeof setTimeout> | undefined;
  const backoff = new RestartBackoff(options.restartBackoff);
  let startWaiters: Array<(pid: number) => void> = [];

  /** The ids of the last requests the bridge cancelled itself, whose cancel by a client is expected. */
  const cancelledByBridge = new RecentIds(1000);

  /** Relays one frame of agent output, after the mirror has seen it. */
  const relayAgentFrame = (current: AgentProcess, frame: Buffer[]) => {
    const { parts, dropped } = withoutBridgeRecords(frame);
    if (dropped > 0) log(`[pi-bridge] dropped ${dropped} agent record(s) in the bridge's own pi-elements/ namespace`);
    const unanswerable = mirror.observeFrame(parts);
    broadcast(parts);
    if (unanswerable.length === 0) return;
    // Requests that block the agent but that no client could ever answer (see UiMirror.observe): answered here,
    // after the clients got them, so that the dialog_closed each client receives follows the request it closes.
    for (const id of unanswerable) {
      current.write(record({ type: "extension_ui_response", id, cancelled: true }));
      cancelledByBridge.add(id);
    }
    broadcast(
      closedFrame(
        unanswerable.map((id) => ({ id })),
        "answered",
      ),
    );
    log(`[pi-bridge] answered ${unanswerable.length} UI request(s) no client can present: cancelled`);
  };

  const startAgent = () => {
    lastExit = undefined;
    mirror.clear();
    const current: AgentProcess = new AgentProcess({
      ...agentCommand,
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      ...(options.env === undefined ? {} : { env: options.env }),
      onFrame: (parts) => {
        if (current !== agent) return;
        guarded("relaying agent output", () => relayAgentFrame(current, parts));
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
        guarded("reporting the agent's exit", () => agentExited(info));
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
    // Two messages: however large the exit report, the dialogs' closing is never refused along with it.
    if (closed.length > 0) broadcast(closedFrame(closed, "agent_exit"));
    broadcast(`${exitRecord(info)}\n`);
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
          if (CONSUMES_EDITOR_TEXT.has(message.command)) mirror.consumeEditorText();
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
        if (mirror.answer(message.response) !== "forward") {
          // The sender believes it answered; tell it the answer went nowhere (the agent restarted, the bridge was
          // restarted while it was offline, the dialog expired, or another client answered first). Not for the
          // client's own cancel of a request the bridge already cancelled.
          if (!cancelledByBridge.has(message.response.id)) client.send(`${unheardAnswerNotice()}\n`);
          return;
        }
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

  const handleFrame = (client: WebSocket, data: unknown, isBinary: boolean) => {
    if (isBinary) {
      client.close(CloseCode.unsupportedData, "text frames only");
      return;
    }
    const text = rawToString(data);
    if (text === undefined) {
      client.close(CloseCode.invalidPayload, "not UTF-8");
      return;
    }
    const result = parseClientFrame(text, maxJsonDepth);
    if (!result.ok) {
      client.close(result.code, result.reason);
      return;
    }
    // All or nothing: an answer that does not fit its dialog refuses the whole frame before anything is done.
    if (result.messages.some((message) => message.kind === "answer" && mirror.misfits(message.response))) {
      client.close(CloseCode.policyViolation, "answer does not fit the dialog");
      return;
    }
    for (const message of result.messages) handleMessage(client, message);
  };

  /** When each client was last pinged and has not answered yet. */
  const awaitingPong = new Map<WebSocket, number>();
  const heartbeat = setInterval(
    () =>
      guarded("pinging clients", () => {
        const now = Date.now();
        for (const client of clients) {
          // ping() throws on a socket that is already closing.
          if (client.readyState !== client.OPEN) continue;
          const since = awaitingPong.get(client);
          if (since === undefined) {
            awaitingPong.set(client, now);
            client.ping();
          } else if (now - since >= frameTimeoutMs) {
            log(`[pi-bridge] closing a client that did not answer a ping in ${frameTimeoutMs} ms`);
            closeHard(client, CloseCode.policyViolation, "no pong in time: frame incomplete or peer gone");
          }
        }
      }),
    Math.max(1, Math.floor(frameTimeoutMs / 2)),
  );
  heartbeat.unref();

  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayload ?? 16 * 1024 * 1024 });
  wss.on("connection", (client: WebSocket) => {
    clients.add(client);
    client.on("close", () => {
      clients.delete(client);
      awaitingPong.delete(client);
    });
    client.on("error", () => {
      // Oversized frames and protocol errors: ws closes with the right code (1009, 1002); nothing to add.
    });
    client.on("pong", () => awaitingPong.delete(client));
    client.on("message", (data, isBinary) =>
      guarded("handling a client frame", () => handleFrame(client, data, isBinary)),
    );
    guarded("replaying the state", () => {
      for (const frame of replayFrames()) client.send(frame);
    });
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
  /** Refusals are logged, at most this many per minute (a hostile page can cause any number of them). */
  const refusalLog = rateLimitedLog(log, 20, 60_000);
  const server: Server = createServer(
    {
      requestTimeout: handshakeTimeoutMs,
      headersTimeout: handshakeTimeoutMs,
      // How often those deadlines are checked (Node's default, 30 s, would let a short deadline run long).
      connectionsCheckingInterval: Math.min(30_000, Math.max(10, Math.floor(handshakeTimeoutMs / 4))),
    },
    (request, response) =>
      guarded("answering an HTTP request", () => {
        if (!hostHeaderAllowed(request.headers.host, hostNames)) {
          refusalLog(`[pi-bridge] refused an HTTP request: 421 (Host ${JSON.stringify(request.headers.host)})`);
          send(response, 421, "Misdirected request");
          return;
        }
        const url = requestUrl(request.url);
        if (url === undefined) {
          send(response, 400, "Bad request");
          return;
        }
        if (staticHandler !== undefined) {
          if (token !== undefined && !staticTokenAccepted(request, response, url, token)) {
            refusalLog(`[pi-bridge] refused an HTTP request from ${request.socket.remoteAddress ?? "?"}: 401`);
            send(response, 401, "Unauthorized: open the http:// URL the bridge printed, with its ?token=");
            return;
          }
          staticHandler(request, response);
          return;
        }
        response.setHeader("Upgrade", "websocket");
        send(response, 426, "This is the pi-bridge WebSocket endpoint.");
      }),
  );
  server.maxConnections = options.maxConnections ?? 256;
  server.on("clientError", (_error, socket: Duplex) => {
    // Malformed or timed-out requests: answered 400 and closed, never left open.
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
    else socket.destroy();
  });
  /** Sockets between a passed check and the end of their handshake, counted against `maxClients`. */
  const upgrading = new Set<Duplex>();
  server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) =>
    guarded(
      "checking an upgrade",
      () => {
        socket.on("error", () => {});
        const refusal = checkUpgrade(request);
        if (refusal !== undefined) {
          const from = request.socket.remoteAddress ?? "?";
          const origin =
            request.headers.origin === undefined ? "" : `, Origin ${JSON.stringify(request.headers.origin)}`;
          refusalLog(`[pi-bridge] refused a connection from ${from}: ${refusal.status} ${refusal.text}${origin}`);
          refuse(socket, refusal.status, refusal.text);
          return;
        }
        upgrading.add(socket);
        socket.once("close", () => upgrading.delete(socket));
        wss.handleUpgrade(request, socket, head, (client) => {
          upgrading.delete(socket);
          wss.emit("connection", client, request);
        });
      },
      () => socket.destroy(),
    ),
  );

  const checkUpgrade = (request: IncomingMessage): { status: number; text: string } | undefined => {
    if (!hostHeaderAllowed(request.headers.host, hostNames)) return { status: 421, text: "Misdirected Request" };
    const url = requestUrl(request.url);
    if (url === undefined) return { status: 400, text: "Bad Request" };
    if (url.pathname !== "/") return { status: 404, text: "Not Found" };
    if (!originAllowed(request.headers.origin, originRules)) return { status: 403, text: "Forbidden" };
    if (token !== undefined && !tokenMatches(presentedToken(url, request.headers.authorization), token)) {
      return { status: 401, text: "Unauthorized" };
    }
    if (clients.size + upgrading.size >= maxClients) return { status: 503, text: "Too Many Clients" };
    return undefined;
  };

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 8787, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  server.on("error", (error) => log(`[pi-bridge] server error (ignored): ${error.message}`));
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
        clearInterval(heartbeat);
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

/**
 * Whether a static-file request carries the token: `?token=` (the printed URL), `Authorization: Bearer`, or the
 * cookie that the first of those sets, so that the page's own scripts and styles (requested without the query)
 * load too. The cookie is HttpOnly and SameSite=Strict, named after the port (cookies ignore ports).
 */
function staticTokenAccepted(request: IncomingMessage, response: ServerResponse, url: URL, token: string): boolean {
  const name = `pi-bridge-${request.socket.localPort}`;
  const explicit = presentedToken(url, request.headers.authorization);
  if (explicit !== undefined) {
    if (!tokenMatches(explicit, token)) return false;
    response.setHeader("Set-Cookie", `${name}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`);
    return true;
  }
  for (const pair of (request.headers.cookie ?? "").split(";")) {
    const [key, value] = pair.trim().split("=", 2);
    if (key === name && value !== undefined) return tokenMatches(safeDecode(value), token);
  }
  return false;
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** One buffer of the parts or the text: the message every client gets (ws frames it once per client). */
function joined(message: string | readonly Buffer[]): Buffer {
  return typeof message === "string" ? Buffer.from(message) : Buffer.concat(message);
}

/**
 * Closes with a code and reason, and drops the connection at once rather than waiting for the peer's closing
 * handshake (a peer in the middle of a frame would never complete it).
 */
function closeHard(client: WebSocket, code: number, reason: string): void {
  client.close(code, reason);
  setImmediate(() => client.terminate());
}

/** A log that writes at most `max` lines per `windowMs`, then says how many it left out. */
function rateLimitedLog(log: (line: string) => void, max: number, windowMs: number): (line: string) => void {
  let windowStart = 0;
  let written = 0;
  let skipped = 0;
  return (line) => {
    const now = Date.now();
    if (now - windowStart >= windowMs) {
      if (skipped > 0) log(`[pi-bridge] (${skipped} more refusals not logged)`);
      windowStart = now;
      written = 0;
      skipped = 0;
    }
    if (written < max) {
      written++;
      log(line);
    } else {
      skipped++;
    }
  };
}

/**
 * A warning notify for a client whose answer reached no pending dialog, as an ordinary extension_ui_request (like
 * the replay's, with a fresh id), so every client shows it with no code of its own.
 */
let noticeSeq = 0;
function unheardAnswerNotice(): string {
  noticeSeq += 1;
  return record({
    type: "extension_ui_request",
    id: `pi-elements-notice-${noticeSeq}`,
    method: "notify",
    notifyType: "warning",
    message:
      "Your answer did not reach the agent: it was no longer waiting for it (the dialog was answered elsewhere or " +
      "expired, or the agent or the bridge restarted).",
  });
}

/** A set that keeps only the `size` most recently added ids. */
class RecentIds {
  readonly #ids = new Set<string>();
  readonly #size: number;
  constructor(size: number) {
    this.#size = size;
  }
  add(id: string): void {
    this.#ids.delete(id);
    this.#ids.add(id);
    if (this.#ids.size > this.#size) this.#ids.delete(this.#ids.values().next().value as string);
  }
  has(id: string): boolean {
    return this.#ids.has(id);
  }
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
