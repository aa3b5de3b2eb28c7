/**
 * Keeps a Lit element in step with one slice of a session's conversation store (`conversationOf(session)` of
 * `@pi-elements/core/conversation`), as SessionStoreController does for the UI store. The store is the host's own
 * `store` property when it has one set (any `ConversationStore`: standalone use, tests), else the conversation of the
 * host's `session` property, else of the session an ancestor `<pi-session>` provides (context). The host re-renders only
 * when the selected slice changes: snapshot parts keep their identity while unchanged, and the store already batches
 * a burst of changes (a stream's tokens) into one notification per frame.
 *
 * Asking for the store is what attaches it to the session: the store then asks pi for its state and keeps it fresh
 * under the core's refresh rule. An element using this controller sends commands with `session.send` and never
 * refreshes anything itself.
 */
import { ContextConsumer } from "@lit/context";
import type { PiSession } from "@pi-elements/core";
import { type ConversationSnapshot, type ConversationStore, conversationOf } from "@pi-elements/core/conversation";
import type { ReactiveController, ReactiveControllerHost } from "lit";
import { sessionContext } from "../context.js";
import { shallowEqual } from "../internal/shallow-equal.js";

export type ConversationStoreHost = ReactiveControllerHost &
  HTMLElement & { session?: PiSession | undefined; store?: ConversationStore | undefined };

export class ConversationStoreController<T> implements ReactiveController {
  readonly #host: ConversationStoreHost;
  readonly #select: (snapshot: ConversationSnapshot) => T;
  readonly #equals: (a: T, b: T) => boolean;
  readonly #changed: (update: () => void) => void;
  readonly #consumer: ContextConsumer<typeof sessionContext, ConversationStoreHost>;
  #subscribed: ConversationStore | undefined;
  #unsubscribe: (() => void) | undefined;
  #value: T | undefined;

  /**
   * `equals`: when the slice counts as unchanged; default `shallowEqual` (a selector may build a new object of parts).
   * `changed`: how a changed slice reaches the host; by default `update` (the host's `requestUpdate`) is called at
   * once. A host that renders at most once a frame passes its own (pi-transcript).
   */
  constructor(
    host: ConversationStoreHost,
    select: (snapshot: ConversationSnapshot) => T,
    options: { equals?: (a: T, b: T) => boolean; changed?: (update: () => void) => void } = {},
  ) {
    this.#host = host;
    this.#select = select;
    this.#equals = options.equals ?? shallowEqual;
    this.#changed = options.changed ?? ((update) => update());
    this.#consumer = new ContextConsumer(host, {
      context: sessionContext,
      subscribe: true,
      callback: () => this.#sync(true),
    });
    host.addController(this);
  }

  /** The session in use: the host's `session` property, else the context's. */
  get session(): PiSession | undefined {
    return this.#host.session ?? this.#consumer.value;
  }

  /** The store in use: the host's `store`, else the conversation of the session in use; undefined without either. */
  get store(): ConversationStore | undefined {
    if (this.#host.store) return this.#host.store;
    const session = this.session;
    return session ? conversationOf(session) : undefined;
  }

  /** The selected slice of the current snapshot; undefined while there is no store. */
  get value(): T | undefined {
    return this.#value;
  }

  /**
   * The selected slice of the store's snapshot as it is now, before the batched notification reaches `value`: for
   * an action that starts from pi's latest answer (a dialog that shows the name pi just took).
   */
  now(): T | undefined {
    const store = this.store;
    return store ? this.#select(store.getSnapshot()) : undefined;
  }

  hostConnected(): void {
    this.#sync(true);
  }

  hostDisconnected(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.#subscribed = undefined;
  }

  /** Runs before each render, so a newly assigned `session` property is picked up by that same render. */
  hostUpdate(): void {
    this.#sync(false);
  }

  readonly #requestUpdate = (): void => this.#host.requestUpdate();

  #sync(requestUpdate: boolean): void {
    if (!this.#host.isConnected) return;
    const store = this.store;
    if (store === this.#subscribed) return;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.#subscribed = store;
    if (store) {
      this.#unsubscribe = store.subscribe(() => {
        if (store !== this.#subscribed) return;
        const next = this.#select(store.getSnapshot());
        if (this.#value !== undefined && this.#equals(this.#value, next)) return;
        this.#value = next;
        this.#changed(this.#requestUpdate);
      });
      this.#value = this.#select(store.getSnapshot());
    } else this.#value = undefined;
    if (requestUpdate) this.#host.requestUpdate();
  }
}
