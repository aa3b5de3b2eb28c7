/**
 * The agent end of a memory transport pair, for the prompt / host / session element tests: it records what the
 * client sends, answers commands with success (unless told otherwise) and sends requests and events as pi would.
 */
import { createMemoryPair, PiSession, type PiSessionOptions, type Transport } from "@pi-elements/core";

export interface SentMessage {
  type: string;
  id?: string;
  [key: string]: unknown;
}

export class FakeAgent {
  readonly session: PiSession;
  readonly end: Transport;
  readonly client: Transport;
  /** Everything the client sent, parsed, in order. */
  readonly received: SentMessage[] = [];
  /** Commands of these types get `success: false`, with the error set in `errors` or "nope". */
  readonly failing = new Set<string>();
  readonly errors = new Map<string, string>();
  /** Commands of these types get no response at all (still pending). */
  readonly silent = new Set<string>();
  /** The `data` a successful response to a command of this type carries. */
  readonly results = new Map<string, unknown>();
  #nextRequest = 0;

  constructor(options: PiSessionOptions = {}) {
    const [client, end] = createMemoryPair();
    this.client = client;
    this.end = end;
    this.session = new PiSession(client, options);
    end.addEventListener("record", (event) => {
      const message = JSON.parse(event.value) as SentMessage;
      this.received.push(message);
      if (message.type === "extension_ui_response" || this.silent.has(message.type)) return;
      const ok = !this.failing.has(message.type);
      this.send({
        type: "response",
        command: message.type,
        success: ok,
        id: message.id,
        ...(ok
          ? this.results.has(message.type)
            ? { data: this.results.get(message.type) }
            : {}
          : { error: this.errors.get(message.type) ?? "nope" }),
      });
    });
  }

  send(message: object): void {
    this.end.send(JSON.stringify(message));
  }

  /** Sends an extension_ui_request and returns its id. */
  request(method: string, fields: Record<string, unknown> = {}): string {
    const id = `req-${++this.#nextRequest}`;
    this.send({ type: "extension_ui_request", id, method, ...fields });
    return id;
  }

  /** Commands (not dialog answers) the client sent, without their ids. */
  commands(): SentMessage[] {
    return this.received
      .filter((m) => m.type !== "extension_ui_response")
      .map(({ id: _id, ...rest }) => rest as SentMessage);
  }

  responses(): SentMessage[] {
    return this.received.filter((m) => m.type === "extension_ui_response");
  }
}

/** Lets queued microtasks and one macrotask run: memory delivery, store batching and Lit updates all settle. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

export { ManualClock } from "../../../test/support/manual-clock.js";
