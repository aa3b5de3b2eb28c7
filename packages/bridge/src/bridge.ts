/**
 * The bridge: one agent process, any number of WebSocket clients, composed of its parts: the `UpgradeGate` decides
 * who may connect, the `ClientHub` holds the clients, the `AgentSupervisor` runs (and restarts) the agent, and the
 * `Relay` carries records between them around the `UiMirror`, which replays the current UI state to each new
 * client (`pi-elements/hello` first).
 */
import { type BackoffOptions, type Clock, realClock } from "@pi-elements/core";
import type { AgentCommand } from "./agent-process.js";
import { AgentSupervisor, type RestartPolicy } from "./agent-supervisor.js";
import { CloseCode } from "./client-frames.js";
import { ClientHub } from "./client-hub.js";
import { guardWith } from "./guard.js";
import { createBridgeServer, listen } from "./http-server.js";
import { DEFAULT_MAX_JSON_DEPTH } from "./json-depth.js";
import { listenOnLoopbackTwin } from "./loopback-twin.js";
import { Relay } from "./relay.js";
import { defaultAgentCommand } from "./resolve-agent.js";
import {
  boundHostNames,
  DEFAULT_ALLOWED_ORIGINS,
  generateToken,
  isLoopbackHost,
  type OriginRule,
  ownOriginRules,
  parseOriginRule,
} from "./security.js";
import { staticFileHandler } from "./static-files.js";
import type { MirrorLimits } from "./ui-mirror.js";
import { UpgradeGate } from "./upgrade-gate.js";

export type { RestartPolicy } from "./agent-supervisor.js";

/**
 * The environment variable the command line reads the token from. The bridge removes it from the agent's
 * environment, so neither the agent nor anything it runs (a tool's shell, whose output goes to the model) sees it.
 */
export const TOKEN_VARIABLE = "PI_BRIDGE_TOKEN";

export interface BridgeOptions {
  /** Default 8787; 0 picks a free port. */
  port?: number;
  /**
   * Default 127.0.0.1 (then [::1] at the same port is held too, so `localhost` reaches this bridge: see
   * loopback-twin.ts). Anything but a loopback address needs `allowRemote`.
   */
  host?: string;
  /** Required to bind a non-loopback address; a warning is logged. */
  allowRemote?: boolean;
  /**
   * Extra names the `Host` header may give (besides the loopback names and the bound address, or every interface
   * address and the host name for 0.0.0.0 / ::), e.g. the machine's DNS name under `allowRemote`. Each must be a
   * bare host name or address (see `parseHostName`; anything else throws). Pages at `http(s)://NAME:PORT` may open
   * the socket.
   */
  allowHosts?: readonly string[];
  /** The token clients must present. Default: a fresh random one. `false` disables it (not recommended). */
  token?: string | false;
  /** Extra allowed origins (`https://app.example`, `http://host:*`, `null`), added to the loopback ones. */
  allowOrigins?: readonly string[];
  /** The agent command. Default: `pi --mode rpc`, the nearest pi installed (see `defaultAgentCommand`). */
  agent?: AgentCommand;
  /** For the default agent: the Node to run pi with. Default: one that satisfies pi's `engines` (see `defaultAgentCommand`). */
  node?: string;
  /** For the default agent: pass `--approve`, so pi (0.79+) loads the project's own `.pi/` extensions and settings. */
  approve?: boolean;
  /** The agent's working directory. Default: the bridge's. */
  cwd?: string;
  /** The agent's environment. Default: the bridge's. Either way without `PI_BRIDGE_TOKEN`. */
  env?: NodeJS.ProcessEnv;
  /** A folder served over HTTP on the same port. */
  staticDir?: string;
  /** Default "on-request". */
  restart?: RestartPolicy;
  /**
   * Delays between automatic restarts under "always", over `RESTART_BACKOFF`: 0.5 s doubling to 30 s, no jitter,
   * back to 0.5 s after a run of 10 s (`resetAfter`); `maxAttempts` restarts in a row at most.
   */
  restartBackoff?: BackoffOptions;
  /** Largest client message in bytes; a bigger one disconnects the client with 1009. Default 16 MiB. */
  maxPayload?: number;
  /** Most WebSocket clients at once; one more is refused with HTTP 503 at the upgrade. Default 16. */
  maxClients?: number;
  /**
   * Most open TCP connections of any kind (clients, handshakes, static files); more are dropped. Default 1024:
   * above what one browser can hold open (Chromium: 256 sockets per profile; Firefox: 900 HTTP connections), so a
   * hostile page in the user's browser cannot take every place alone.
   */
  maxConnections?: number;
  /** Milliseconds an HTTP request (a WebSocket handshake too) may take to arrive whole. Default 10000. */
  handshakeTimeoutMs?: number;
  /**
   * Milliseconds a new connection may stay silent before its first request has arrived (a gap between two of its
   * bytes too); then it is dropped. Default 2000.
   */
  firstByteTimeoutMs?: number;
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
  /**
   * Characters of the turn in progress kept for a client that connects mid-turn: the streaming message's text,
   * thinking and argument text and the running tools' latest records (see `TurnKeeper`). Default 2 Mi (2,097,152).
   */
  maxTurnChars?: number;
  /** Output waiting for one slow client beyond which it is disconnected with 1013. Default 64 MiB. */
  maxClientBacklog?: number;
  /** Milliseconds between SIGTERM and SIGKILL when stopping the agent. Default 3000. */
  stopGraceMs?: number;
  /** Bridge and agent-stderr log lines. Default: written to the bridge's stderr. */
  log?: (line: string) => void;
  /**
   * The bridge's time, for every timer of its own: dialog deadlines, restart delays (and `resetAfter`), pings and
   * `frameTimeoutMs`, wrong-token pacing, the bound on writing a refusal, the refusal log's minute, the agent's stop
   * grace (`stopGraceMs`) and its post-exit read window. `handshakeTimeoutMs` and `firstByteTimeoutMs` are Node's
   * own socket timers and stay on real time. Default: real time.
   */
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
  /** Open TCP connections of any kind (what counts against `maxConnections`). */
  openConnections(): Promise<number>;
  /** Resolves when the current agent has started (immediately if it runs). */
  agentStarted(): Promise<number>;
  /** Restarts the agent now (stopping it first if it runs), whatever the policy. */
  restartAgent(): Promise<void>;
  /** Disconnects every client, stops the agent (SIGTERM, then SIGKILL after the grace period) and the server. */
  close(): Promise<void>;
}

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
  // Before anything starts: a bad --allow-host (or origin) is the user's error, said at once.
  const hostNames = boundHostNames(host, options.allowHosts);
  const originRules: OriginRule[] = [...DEFAULT_ALLOWED_ORIGINS, ...(options.allowOrigins ?? [])].map(parseOriginRule);
  const token = options.token === false ? undefined : (options.token ?? generateToken());
  if (options.token === false) log("[pi-bridge] WARNING: token check disabled; any local program can drive the agent.");
  const policy = options.restart ?? "on-request";
  const agentEnv = withoutToken(options.env ?? process.env);
  const agentCommand = options.agent ?? chooseAgent(options, agentEnv, log);
  const staticHandler = options.staticDir === undefined ? undefined : await staticFileHandler(options.staticDir);
  const clock = options.clock ?? realClock;
  const guarded = guardWith(log);

  const gate = new UpgradeGate({
    token,
    hostNames,
    originRules,
    maxClients: options.maxClients ?? 16,
    clock,
    log,
  });
  const supervisor: AgentSupervisor = new AgentSupervisor({
    command: agentCommand,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    env: agentEnv,
    policy,
    ...(options.restartBackoff === undefined ? {} : { backoff: options.restartBackoff }),
    ...(options.stopGraceMs === undefined ? {} : { stopGraceMs: options.stopGraceMs }),
    clock,
    onStart: (pid) => relay.agentStarted(pid),
    onFrame: (agent, parts) => relay.agentFrame(agent, parts),
    onStderrLine: (line) => relay.agentStderr(line),
    onExit: (info) => relay.agentExited(info),
    // Stop reading from clients while the agent cannot keep up; ws then pushes back on them over TCP.
    onBackpressure: (blocked) => hub.setPaused(blocked),
    log,
    guarded,
  });
  const hub: ClientHub = new ClientHub({
    maxPayload: options.maxPayload ?? 16 * 1024 * 1024,
    maxClientBacklog: options.maxClientBacklog ?? 64 * 1024 * 1024,
    frameTimeoutMs: options.frameTimeoutMs ?? 30_000,
    clock,
    handleProtocols: (protocols) => gate.protocol(protocols),
    onConnect: (client) => {
      for (const frame of relay.replay(supervisor.lastExit)) hub.send(client, frame);
    },
    onFrame: (client, data, isBinary) => relay.clientFrame(client, data, isBinary),
    log,
    guarded,
  });
  const relay: Relay = new Relay({
    clock,
    ...(options.mirror === undefined ? {} : { mirror: options.mirror }),
    ...(options.maxTurnChars === undefined ? {} : { maxTurnChars: options.maxTurnChars }),
    maxJsonDepth: options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH,
    broadcast: (message, except) => hub.broadcast(message, except),
    send: (client, message) => hub.send(client, message),
    agent: () => supervisor.current,
    ...(policy === "never" ? {} : { restart: () => void supervisor.restart() }),
    restartPolicy: policy,
    log,
    guarded,
  });
  const maxConnections = options.maxConnections ?? 1024;
  const server = createBridgeServer({
    gate,
    hub,
    staticHandler,
    handshakeTimeoutMs: options.handshakeTimeoutMs ?? 10_000,
    firstByteTimeoutMs: options.firstByteTimeoutMs ?? 2000,
    maxConnections,
    clock,
    log,
    guarded,
  });
  const port = await listen(server, options.port ?? 8787, host, log);
  // The bridge's own pages (http://NAME:PORT/ for every name it answers to) may open its socket; the port is
  // known only now. Synchronously after listening, so before any request is read.
  originRules.push(...ownOriginRules(hostNames, port));
  const twin = await listenOnLoopbackTwin(server, maxConnections, log);
  const urlHost = host.includes(":") ? `[${host}]` : host;
  const url = `ws://${urlHost}:${port}/${token === undefined ? "" : `?token=${encodeURIComponent(token)}`}`;

  supervisor.start();

  let closed: Promise<void> | undefined;
  return {
    url,
    host,
    port,
    token,
    get agentPid() {
      return supervisor.pid;
    },
    get clientCount() {
      return hub.size;
    },
    get agentBacklog() {
      return supervisor.current?.queuedBytes ?? 0;
    },
    openConnections: () =>
      new Promise((resolve, reject) =>
        server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      ),
    agentStarted: () => supervisor.started(),
    restartAgent: () => supervisor.restart(),
    close() {
      closed ??= (async () => {
        hub.close(CloseCode.goingAway, "bridge shutting down");
        await supervisor.close();
        relay.dispose();
        gate.dispose();
        hub.terminate();
        twin?.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      })();
      return closed;
    },
  };
}

/** `env` without `PI_BRIDGE_TOKEN` (in any letter case on Windows, where names are case-insensitive). */
function withoutToken(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const same = (name: string) =>
    process.platform === "win32" ? name.toUpperCase() === TOKEN_VARIABLE : name === TOKEN_VARIABLE;
  return Object.fromEntries(Object.entries(env).filter(([name]) => !same(name)));
}

/** The default agent, with a log line saying which pi runs on which Node and why, and what the user should know. */
function chooseAgent(options: BridgeOptions, env: NodeJS.ProcessEnv, log: (line: string) => void): AgentCommand {
  const choice = defaultAgentCommand(options.cwd, {
    ...(options.node === undefined ? {} : { node: options.node }),
    ...(options.approve === undefined ? {} : { approve: options.approve }),
    env,
  });
  for (const warning of choice.warnings) log(`[pi-bridge] WARNING: ${warning}`);
  log(`[pi-bridge] agent: ${choice.description}`);
  for (const note of choice.notes) log(`[pi-bridge] note: ${note}`);
  return { command: choice.command, args: choice.args };
}
