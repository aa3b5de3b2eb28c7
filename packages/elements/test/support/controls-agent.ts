/**
 * A scripted pi for the session controls' tests: the agent end of a memory transport pair behind a real PiSession,
 * answering with the answers real pi 0.73.1 and 1.6.0 gave (test/fixtures/session-controls/<version>.json, recorded
 * by test/e2e/session-controls.test.ts with RECORD_CONTROLS=1) and keeping the state those commands change, as pi
 * does: `set_model` answers with pi's model object and changes `get_state`'s model (a model that does not reason
 * takes the level to "off"), `set_thinking_level` changes its level, `set_session_name` its name. 0.73.1 answers
 * `get_available_thinking_levels` as it really does: "Unknown command", without the command's id.
 */
import { createMemoryPair, PiSession, type Transport } from "@pi-elements/core";

export type PiVersionName = "0.73.1" | "1.6.0";
export const VERSIONS: readonly PiVersionName[] = ["0.73.1", "1.6.0"];

type Recorded = Record<
  string,
  { sent: { type: string }; answer: { success: boolean; data?: unknown; error?: string } }
>;
type Model = { provider: string; id: string; reasoning?: boolean; [key: string]: unknown };

const cache = new Map<PiVersionName, Recorded>();

async function recorded(version: PiVersionName): Promise<Recorded> {
  let value = cache.get(version);
  if (!value) {
    const response = await fetch(`/test/fixtures/session-controls/${version}.json`);
    value = (await response.json()) as Recorded;
    cache.set(version, value);
  }
  return value;
}

export interface Sent {
  type: string;
  [key: string]: unknown;
}

export class ControlsAgent {
  readonly session: PiSession;
  readonly end: Transport;
  readonly version: PiVersionName;
  /** Every command the client sent, without its id, in order. */
  readonly sent: Sent[] = [];
  /** Commands of these types fail with this error. */
  readonly failing = new Map<string, string>();
  /** Commands of these types succeed with this data instead. */
  readonly answers = new Map<string, unknown>();
  /** Commands of these types are never answered. */
  readonly silent = new Set<string>();
  /** Commands of these types wait for their answer until `hold`'s release is called. */
  readonly #held = new Map<string, Array<() => void>>();
  models: Model[];
  state: Record<string, unknown>;
  stats: unknown;
  forkMessages: Array<{ entryId: string; text: string }>;
  readonly #recorded: Recorded;

  private constructor(version: PiVersionName, data: Recorded) {
    this.version = version;
    this.#recorded = data;
    const first = (type: string) => Object.values(data).find((e) => e.sent.type === type)?.answer.data;
    this.models = structuredClone((first("get_available_models") as { models: Model[] }).models);
    this.state = structuredClone(first("get_state") as Record<string, unknown>);
    this.stats = structuredClone(first("get_session_stats"));
    this.forkMessages = structuredClone((first("get_fork_messages") as { messages: [] }).messages);
    const [client, end] = createMemoryPair();
    this.end = end;
    this.session = new PiSession(client);
    end.addEventListener("record", (event) => {
      const { id, ...command } = JSON.parse(event.value) as Sent & { id?: string };
      this.sent.push(command);
      if (command.type === "extension_ui_response" || this.silent.has(command.type)) return;
      const held = this.#held.get(command.type);
      if (held) {
        held.push(() => this.#respond(id, command));
        return;
      }
      this.#respond(id, command);
    });
  }

  #respond(id: string | undefined, command: Sent): void {
    const failure = this.failing.get(command.type);
    if (failure !== undefined) {
      this.send({ type: "response", id, command: command.type, success: false, error: failure });
      return;
    }
    const answer = this.answers.has(command.type)
      ? { response: { success: true, data: this.answers.get(command.type) }, noId: false }
      : this.#answer(command);
    this.send({ type: "response", ...(answer.noId ? {} : { id }), command: command.type, ...answer.response });
  }

  /** Holds back the answers to commands of `type` until the returned function is called; then answers them. */
  hold(type: string): () => void {
    const waiting: Array<() => void> = [];
    this.#held.set(type, waiting);
    return () => {
      this.#held.delete(type);
      for (const answer of waiting.splice(0)) answer();
    };
  }

  static async start(version: PiVersionName): Promise<ControlsAgent> {
    return new ControlsAgent(version, await recorded(version));
  }

  /** The recorded answer of pi of this version to the first command of `type`. */
  recordedAnswer(type: string): unknown {
    return Object.values(this.#recorded).find((e) => e.sent.type === type)?.answer;
  }

  send(message: object): void {
    this.end.send(JSON.stringify(message));
  }

  /** The commands sent of these types. */
  commands(...types: string[]): Sent[] {
    return this.sent.filter((c) => types.includes(c.type));
  }

  /** pi begins a run (the store's isStreaming). */
  startRun(): void {
    this.state = { ...this.state, isStreaming: true };
    this.send({ type: "agent_start" });
  }

  endRun(): void {
    this.state = { ...this.state, isStreaming: false };
    this.send({ type: "agent_end", messages: [] });
  }

  #levels(): string[] {
    const model = this.state["model"] as Model | undefined;
    return model?.reasoning ? ["off", "minimal", "low", "medium", "high"] : ["off"];
  }

  #answer(command: Sent): {
    response: { success: boolean; data?: unknown; error?: string };
    noId?: boolean;
  } {
    const ok = (data?: unknown) => ({ response: { success: true, ...(data === undefined ? {} : { data }) } });
    const fail = (error: string) => ({ response: { success: false, error } });
    switch (command.type) {
      case "get_state":
        return ok(this.state);
      case "get_messages":
        return ok({ messages: [] });
      case "get_available_models":
        return ok({ models: this.models });
      case "get_session_stats":
        return ok(this.stats);
      case "get_available_thinking_levels":
        if (this.version === "0.73.1") {
          return { response: { success: false, error: `Unknown command: ${command.type}` }, noId: true };
        }
        return ok({ levels: this.#levels() });
      case "set_model": {
        const model = this.models.find((m) => m.provider === command["provider"] && m.id === command["modelId"]);
        if (!model) return fail(`Model not found: ${command["provider"]}/${command["modelId"]}`);
        this.state = { ...this.state, model, ...(model.reasoning ? {} : { thinkingLevel: "off" }) };
        return ok(model);
      }
      case "set_thinking_level": {
        const level = String(command["level"]);
        this.state = { ...this.state, thinkingLevel: this.#levels().includes(level) ? level : "off" };
        return ok();
      }
      case "set_session_name": {
        const name = String(command["name"]).trim();
        if (!name) return fail("Session name cannot be empty");
        this.state = { ...this.state, sessionName: name };
        return ok();
      }
      case "get_fork_messages":
        return ok({ messages: this.forkMessages });
      case "fork": {
        const message = this.forkMessages.find((m) => m.entryId === command["entryId"]);
        if (!message) return fail("Invalid entry ID for forking");
        return ok({ text: message.text, cancelled: false });
      }
      case "new_session":
        return ok({ cancelled: false });
      case "compact":
        return ok({ summary: "Summary of the conversation.", firstKeptEntryId: "e1", tokensBefore: 1200, details: {} });
      case "export_html":
        return ok({ path: "/tmp/pi-session-export.html" });
      default:
        return ok();
    }
  }
}
