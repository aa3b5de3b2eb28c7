/**
 * The agent end of a story: it sends extension-UI requests the way pi does and records every record the page
 * sends back, verbatim, for the event log.
 */
import { type Clock, createMemoryPair, type MemoryTransport, PiSession } from "@pi-elements/core";

export interface LoggedRecord {
  /** The exact line the agent received. */
  line: string;
  time: number;
}

export class StoryAgent extends EventTarget {
  readonly session: PiSession;
  readonly received: LoggedRecord[] = [];
  /** What `get_commands` answers (pi's slash commands), empty unless a story sets it. */
  commands: ReadonlyArray<{ name: string; description?: string; source: string; argumentHint?: string }> = [];
  /**
   * The data pi answers commands with, by type (a function gets the command sent): a story of the session controls
   * sets what pi's `get_state`, `get_available_models` or `set_model` would answer. Commands not listed get none.
   */
  answers: Readonly<Record<string, unknown | ((command: Record<string, unknown>) => unknown)>> = {};
  /** Commands pi refuses, by type, with the error it gives (e.g. `{ prompt: "Agent is busy" }`). */
  refusals: Readonly<Record<string, string>> = {};
  readonly #end: MemoryTransport;
  #nextId = 1;

  /** `clock`: the session's (real time by default); a test that compares renderings passes a frozen one. */
  constructor(options: { clock?: Clock } = {}) {
    super();
    const [agentEnd, pageEnd] = createMemoryPair();
    this.#end = agentEnd;
    this.session = new PiSession(pageEnd, options.clock ? { clock: options.clock } : {});
    agentEnd.addEventListener("record", (event) => {
      this.received.push({ line: event.value, time: Date.now() });
      this.dispatchEvent(new Event("received"));
      this.#answerCommand(event.value);
    });
  }

  /** Sends one extension_ui_request and returns its id. */
  request(method: string, fields: Record<string, unknown> = {}): string {
    const id = `story-${this.#nextId++}`;
    this.#end.send(JSON.stringify({ type: "extension_ui_request", id, method, ...fields }));
    return id;
  }

  /** Sends any record, e.g. an agent event. */
  raw(message: Record<string, unknown>): void {
    this.#end.send(JSON.stringify(message));
  }

  /** Commands (prompt, steer, abort, ...) get a response, success unless refused, so the page's promises settle. */
  #answerCommand(line: string): void {
    const message = JSON.parse(line) as { type?: unknown; id?: unknown; [key: string]: unknown };
    if (message.type === "extension_ui_response" || typeof message.id !== "string") return;
    const command = typeof message.type === "string" ? message.type : "";
    const refusal = Object.hasOwn(this.refusals, command) ? this.refusals[command] : undefined;
    if (refusal !== undefined) {
      this.raw({ type: "response", id: message.id, command, success: false, error: refusal });
      return;
    }
    const answer = Object.hasOwn(this.answers, command) ? this.answers[command] : undefined;
    const data =
      command === "get_commands"
        ? { commands: this.commands }
        : typeof answer === "function"
          ? answer(message)
          : answer;
    this.raw({ type: "response", id: message.id, command, success: true, ...(data ? { data } : {}) });
  }

  close(): void {
    this.session.close();
  }
}
