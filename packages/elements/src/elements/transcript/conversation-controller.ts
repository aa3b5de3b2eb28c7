/**
 * Keeps a Lit element in step with a conversation store: the host's own `store` property when set, else the store
 * of its `session` property, else of the session an ancestor `<pi-session>` provides (context). The store batches
 * its notifications (per animation frame in a browser), and each batch is one `requestUpdate()`: one render.
 */
import { ContextConsumer } from "@lit/context";
import type { PiSession } from "@pi-elements/core";
import { type ConversationSnapshot, type ConversationStore, conversationOf } from "@pi-elements/core/conversation";
import type { ReactiveController, ReactiveControllerHost } from "lit";
import { sessionContext } from "../../context.js";

export type ConversationHost = ReactiveControllerHost &
  HTMLElement & { session?: PiSession | undefined; store?: ConversationStore | undefined };

export class ConversationController implements ReactiveController {
  readonly #host: ConversationHost;
  readonly #consumer: ContextConsumer<typeof sessionContext, ConversationHost>;
  #subscribed: ConversationStore | undefined;
  #unsubscribe: (() => void) | undefined;

  constructor(host: ConversationHost) {
    this.#host = host;
    this.#consumer = new ContextConsumer(host, {
      context: sessionContext,
      subscribe: true,
      callback: () => this.#sync(true),
    });
    host.addController(this);
  }

  /** The store in use: `store`, else the conversation of `session` or of the context's session. */
  get store(): ConversationStore | undefined {
    if (this.#host.store) return this.#host.store;
    const session = this.#host.session ?? this.#consumer.value;
    return session ? conversationOf(session) : undefined;
  }

  /** The store's snapshot now; undefined without a store. */
  get snapshot(): ConversationSnapshot | undefined {
    return this.#subscribed?.getSnapshot();
  }

  hostConnected(): void {
    this.#sync(true);
  }

  hostDisconnected(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.#subscribed = undefined;
  }

  /** Before each render, so a newly assigned `store` or `session` is shown by that same render. */
  hostUpdate(): void {
    this.#sync(false);
  }

  #sync(requestUpdate: boolean): void {
    if (!this.#host.isConnected) return;
    const store = this.store;
    if (store === this.#subscribed) return;
    this.#unsubscribe?.();
    this.#subscribed = store;
    this.#unsubscribe = store?.subscribe(() => {
      if (store === this.#subscribed) this.#host.requestUpdate();
    });
    if (requestUpdate) this.#host.requestUpdate();
  }
}
