/**
 * Keeps a Lit element in step with one slice of a session's conversation store, as SessionStoreController does for the
 * UI store. The store is the host's own `store` property when it has one set (any `ConversationStore`: standalone
 * use, tests), else the one `lookup` gives for the host's `session` property, else for the session an ancestor
 * `<pi-session>` provides (context). The host re-renders only when the selected slice changes: snapshot parts keep
 * their identity while unchanged, and the store already batches a burst of changes (a stream's tokens) into one
 * notification per frame.
 *
 * This base class looks the store up without making it (`attachedConversation`): it follows the conversation only
 * when something on the page keeps it (a transcript, the host's `conversationOf(session)`), and picks it up when that
 * happens, so an element of the extension UI's single file can show it without carrying the reducer.
 * ConversationStoreController makes the store.
 */
import { ContextConsumer } from "@lit/context";
import type { PiSession } from "@pi-elements/core";
import {
  attachedConversation,
  type ConversationSnapshot,
  type ConversationStore,
  onConversationAttached,
} from "@pi-elements/core/conversation";
import type { ReactiveController, ReactiveControllerHost } from "lit";
import { sessionContext } from "../context.js";
import { shallowEqual } from "../internal/shallow-equal.js";

export type ConversationStoreHost = ReactiveControllerHost &
  HTMLElement & { session?: PiSession | undefined; store?: ConversationStore | undefined };

export class ConversationSliceController<T> implements ReactiveController {
  readonly #host: ConversationStoreHost;
  readonly #select: (snapshot: ConversationSnapshot) => T;
  readonly #equals: (a: T, b: T) => boolean;
  readonly #changed: (update: () => void) => void;
  readonly #consumer: ContextConsumer<typeof sessionContext, ConversationStoreHost>;
  #subscribed: ConversationStore | undefined;
  #unsubscribe: (() => void) | undefined;
  #value: T | undefined;
  #offAttached: (() => void) | undefined;
  readonly #lookup: (session: PiSession) => ConversationStore | undefined;

  /**
   * `equals`: when the slice counts as unchanged; default `shallowEqual` (a selector may build a new object of parts).
   * `changed`: how a changed slice reaches the host; by default `update` (the host's `requestUpdate`) is called at
   * once. A host that renders at most once a frame passes its own (pi-transcript).
   */
  constructor(
    host: ConversationStoreHost,
    select: (snapshot: ConversationSnapshot) => T,
    options: {
      equals?: (a: T, b: T) => boolean;
      /** How the store of a session is found; default `attachedConversation` (never makes one). */
      lookup?: (session: PiSession) => ConversationStore | undefined;
      changed?: (update: () => void) => void;
    } = {},
  ) {
    this.#lookup = options.lookup ?? attachedConversation;
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

  /** The store in use: the host's `store`, else the store `lookup` gives for the session in use; undefined without either. */
  get store(): ConversationStore | undefined {
    if (this.#host.store) return this.#host.store;
    const session = this.session;
    return session ? this.#lookup(session) : undefined;
  }

  /**
   * The selected slice of the current snapshot; undefined while there is no store. Always of the store in use: read in
   * `willUpdate`, before `hostUpdate` has run, a session or store assigned since the last render is taken first.
   */
  get value(): T | undefined {
    this.#sync(false);
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
    this.#offAttached ??= onConversationAttached((session) => {
      if (session === this.session) this.#sync(true);
    });
    this.#sync(true);
  }

  hostDisconnected(): void {
    this.#offAttached?.();
    this.#offAttached = undefined;
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
