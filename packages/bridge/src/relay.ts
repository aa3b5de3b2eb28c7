/**
 * The bridge's rules between the agent and its clients, around the `UiMirror` that keeps the UI state for the
 * replay. Agent → clients: each frame of agent output, without records in the bridge's own namespace, to every
 * client, after the mirror has seen it; requests no client can answer are cancelled here. Clients → agent: a
 * client frame is checked whole, then its commands go to the agent and the first answer in time to each pending
 * dialog goes to it too, while the other clients are told the dialog closed. A dialog whose deadline passes (its
 * timer ran, or an answer came too late) is answered `cancelled` to the agent, as the core's session answers it.
 */
import type { Clock } from "@pi-elements/core";
import type { AgentExitInfo, AgentProcess } from "./agent-process.js";
import type { RestartPolicy } from "./agent-supervisor.js";
import {
  agentStartFrame,
  closedFrame,
  diagnosticOf,
  diagnosticRecord,
  exitRecord,
  framesOf,
  HELLO,
  record,
  unheardAnswerNotice,
} from "./bridge-records.js";
import { type ClientMessage, CloseCode, parseClientFrame } from "./client-frames.js";
import type { Guard } from "./guard.js";
import { sortAgentFrame } from "./jsonl-frames.js";
import { TurnKeeper } from "./turn-keeper.js";
import { type MirrorLimits, UiMirror } from "./ui-mirror.js";

/** What the relay needs of a client: ws's WebSocket fits. Messages go to it through `RelayOptions.send`. */
export interface RelayClient {
  close(code: number, reason: string): void;
}

/** What the relay needs of the agent: `AgentProcess` fits. */
export type RelayAgent = Pick<AgentProcess, "running" | "write">;

export interface RelayOptions {
  clock: Clock;
  mirror?: MirrorLimits;
  /** The cap of the turn kept for the replay (see `TurnKeeper`). */
  maxTurnChars?: number;
  maxJsonDepth: number;
  /** Sends one text message (a string, or whole records as parts) to every open client but `except`. */
  broadcast: (message: string | readonly Buffer[], except?: RelayClient) => void;
  /** Sends one text message to one client, within the same backlog limit as `broadcast`. */
  send: (client: RelayClient, message: string) => void;
  /** The running agent, if any. */
  agent: () => RelayAgent | undefined;
  /** Asks for a restart (a client's `pi-elements/restart`); undefined when the policy forbids it. */
  restart?: () => void;
  /** The bridge's restart policy, told to clients with each exit report. */
  restartPolicy: RestartPolicy;
  log: (line: string) => void;
  guarded: Guard;
}

/** The commands that send the user's message, and so use up the editor text the agent set. */
const CONSUMES_EDITOR_TEXT = new Set(["prompt", "steer", "follow_up"]);
/** How many of the agent's stderr diagnostics go to the clients in a minute. */
export const DIAGNOSTICS_PER_MINUTE = 20;

export class Relay {
  readonly #options: RelayOptions;
  readonly #mirror: UiMirror;
  readonly #turn: TurnKeeper;
  /** The ids of the last requests the bridge cancelled itself, whose cancel by a client is expected. */
  readonly #cancelledByBridge = new RecentIds(1000);
  /** When the last diagnostics went to the clients (within the last minute). */
  readonly #diagnosticTimes: number[] = [];

  constructor(options: RelayOptions) {
    this.#options = options;
    const { guarded, log } = options;
    this.#mirror = new UiMirror({
      clock: options.clock,
      onExpired: (dialog, answer) => guarded("expiring a dialog", () => this.#expired(dialog.id, answer)),
      ...(options.mirror === undefined ? {} : { limits: options.mirror }),
      onLimit: (message) => log(`[pi-bridge] ${message}`),
    });
    this.#turn = new TurnKeeper({
      ...(options.maxTurnChars === undefined ? {} : { maxChars: options.maxTurnChars }),
      onLimit: (message) => log(`[pi-bridge] turn replay: ${message}`),
    });
  }

  /** A new agent: its predecessor's state is gone; clients are told once it has a pid. */
  agentStarted(pid: number | undefined): void {
    this.#mirror.clear();
    this.#turn.clear();
    if (pid !== undefined) this.#options.broadcast(agentStartFrame(pid));
  }

  /** The agent is gone: its dialogs close, then clients get the exit report. */
  agentExited(info: AgentExitInfo): void {
    this.#turn.clear();
    const closed = this.#mirror.closeAll();
    // Two messages: however large the exit report, the dialogs' closing is never refused along with it.
    if (closed.length > 0) this.#options.broadcast(closedFrame(closed, "agent_exit"));
    this.#options.broadcast(`${exitRecord(info, this.#options.restartPolicy)}\n`);
  }

  /**
   * A line the agent wrote to its stderr: one in pi's diagnostic form (`Warning: …`, `Error: …`; pi 1.x writes one
   * after a session change whose model it could not restore) goes to every client, at most `DIAGNOSTICS_PER_MINUTE`
   * a minute (an agent that writes more has the rest only in the log).
   */
  agentStderr(line: string): void {
    const diagnostic = diagnosticOf(line);
    if (diagnostic === undefined) return;
    const now = this.#options.clock.now();
    while (this.#diagnosticTimes.length > 0 && now - (this.#diagnosticTimes[0] as number) >= 60_000)
      this.#diagnosticTimes.shift();
    if (this.#diagnosticTimes.length >= DIAGNOSTICS_PER_MINUTE) return;
    this.#diagnosticTimes.push(now);
    this.#options.broadcast(`${diagnosticRecord(diagnostic.level, diagnostic.message)}\n`);
  }

  /** Relays one frame of agent output, after the mirror has seen it. */
  agentFrame(agent: RelayAgent, frame: Buffer[]): void {
    const { broadcast, log } = this.#options;
    const { parts, dropped, uiRequests } = sortAgentFrame(frame);
    if (dropped > 0) log(`[pi-bridge] dropped ${dropped} agent record(s) in the bridge's own pi-elements/ namespace`);
    const unanswerable = this.#mirror.observe(uiRequests);
    this.#turn.observe(parts);
    broadcast(parts);
    if (unanswerable.length === 0) return;
    // Requests that block the agent but that no client could ever answer (see UiMirror.observe): answered here,
    // after the clients got them, so that the dialog_closed each client receives follows the request it closes.
    for (const id of unanswerable) {
      agent.write(record({ type: "extension_ui_response", id, cancelled: true }));
      this.#cancelledByBridge.add(id);
    }
    broadcast(
      closedFrame(
        unanswerable.map((id) => ({ id })),
        "answered",
      ),
    );
    log(`[pi-bridge] answered ${unanswerable.length} UI request(s) no client can present: cancelled`);
  }

  /**
   * The frames a new client gets: hello, the current UI state, the turn in progress (see `TurnKeeper`), and the last
   * exit report if no agent runs.
   */
  replay(lastExit: AgentExitInfo | undefined): string[] {
    const records = [HELLO, ...this.#mirror.replay(), ...this.#turn.replay()];
    if (lastExit !== undefined) records.push(exitRecord(lastExit, this.#options.restartPolicy));
    return framesOf(records);
  }

  /** One frame from a client: refused whole (the client closed with a code) or acted on record by record. */
  clientFrame(client: RelayClient, data: unknown, isBinary: boolean): void {
    if (isBinary) {
      client.close(CloseCode.unsupportedData, "text frames only");
      return;
    }
    const text = rawToString(data);
    if (text === undefined) {
      client.close(CloseCode.invalidPayload, "not UTF-8");
      return;
    }
    const result = parseClientFrame(text, this.#options.maxJsonDepth);
    if (!result.ok) {
      client.close(result.code, result.reason);
      return;
    }
    // All or nothing: an answer that does not fit its dialog refuses the whole frame before anything is done.
    if (result.messages.some((message) => message.kind === "answer" && this.#mirror.misfits(message.response))) {
      client.close(CloseCode.policyViolation, "answer does not fit the dialog");
      return;
    }
    for (const message of result.messages) this.#clientMessage(client, message);
  }

  dispose(): void {
    this.#mirror.dispose();
  }

  /**
   * A dialog's deadline passed: the agent gets the core's timeout answer (pi, which timed it out itself, ignores an
   * answer to a dialog it no longer waits for), every client is told it expired, and a client's own timeout cancel
   * for it, which follows, is expected.
   */
  #expired(id: string, answer: object): void {
    const agent = this.#options.agent();
    if (agent?.running) agent.write(record({ type: "extension_ui_response", id, ...answer }));
    this.#cancelledByBridge.add(id);
    this.#options.broadcast(closedFrame([{ id }], "expired"));
  }

  #clientMessage(client: RelayClient, message: ClientMessage): void {
    const agent = this.#options.agent();
    switch (message.kind) {
      case "command":
        if (agent?.running) {
          agent.write(message.record);
          if (CONSUMES_EDITOR_TEXT.has(message.command)) this.#mirror.consumeEditorText();
        } else {
          // pi's own failure shape, to the sender only, so a client awaiting the response is not left hanging.
          const { command, id } = message;
          const error = "The agent is not running.";
          this.#options.send(
            client,
            `${record({ type: "response", command, success: false, error, ...(id === undefined ? {} : { id }) })}\n`,
          );
        }
        return;
      case "answer": {
        // Checked for every answer of the frame before; "wrong-shape" cannot happen here. A late answer ("expired")
        // has just expired its dialog: the agent got the timeout's cancel instead, and everyone was told.
        if (this.#mirror.answer(message.response) !== "answered") {
          // The sender believes it answered; tell it the answer went nowhere (the agent restarted, the bridge was
          // restarted while it was offline, the dialog expired, or another client answered first). Not for a
          // cancel of a request the bridge already cancelled itself: that is what the agent got.
          const { response } = message;
          if (!("cancelled" in response && response.cancelled === true && this.#cancelledByBridge.has(response.id)))
            this.#options.send(client, `${unheardAnswerNotice()}\n`);
          return;
        }
        agent?.write(record(message.response));
        // Every client is told, the answering one too: if it answered while disconnected, the replay it got on
        // reconnecting (sent before its queued answer was read) showed the dialog again.
        this.#options.broadcast(closedFrame([{ id: message.response.id }], "answered"));
        return;
      }
      case "restart":
        this.#options.restart?.();
        return;
    }
  }
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
