/**
 * A real PiSession over a memory transport, with the agent's end in the test's hands: send requests as pi does and
 * read the exact records the client puts on the wire.
 */
import { type Clock, createMemoryPair, type DialogRequest, PiSession } from "@pi-elements/core";
import type { AnyDialog } from "./dialogs.js";

export class TestAgent {
  readonly session: PiSession;
  /** Every record the client sent, parsed. */
  readonly received: Array<Record<string, unknown>> = [];
  readonly #end;

  constructor(clock: Clock) {
    const [client, end] = createMemoryPair();
    this.#end = end;
    this.session = new PiSession(client, { clock });
    end.addEventListener("record", (event) => this.received.push(JSON.parse(event.value)));
  }

  send(request: DialogRequest): void {
    this.#end.send(JSON.stringify(request));
  }

  /** Any other message, as the agent or the bridge would send it. */
  sendRaw(message: object): void {
    this.#end.send(JSON.stringify(message));
  }

  /** The extension_ui_response records sent so far. */
  responses(): Array<Record<string, unknown>> {
    return this.received.filter((record) => record.type === "extension_ui_response");
  }

  /**
   * Sends `request`, waits for the session to queue it, and hands it to `el` the way pi-extension-ui does (the
   * session and the request; the element reads the dialog's deadline from the session's store, on its clock).
   */
  async ask(el: AnyDialog, request: DialogRequest): Promise<void> {
    this.send(request);
    await settle();
    const head = this.session.ui.getSnapshot().dialogs.find((dialog) => dialog.id === request.id);
    if (!head) throw new Error("the session queued no dialog");
    el.session = this.session;
    el.request = head.request;
    await el.updateComplete;
  }
}

/** Lets memory-transport delivery (microtasks) and the store's batching run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}
