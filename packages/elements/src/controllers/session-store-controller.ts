/**
 * Keeps a Lit element in step with one slice of a UI store. The store is the session's: the host's own `session`
 * property when set, else the one provided by an ancestor `<pi-session>` (context); without a session, the host's
 * own store (`fallback`), which an element used standalone writes to. The host re-renders only when the selected
 * slice changes; the store already batches a burst of changes into one notification and Lit batches
 * requestUpdate() into one render, so a burst costs one render.
 */
import { ContextConsumer } from "@lit/context";
import type { PiSession, UiSnapshot, UiStore } from "@pi-elements/core";
import type { ReactiveController, ReactiveControllerHost } from "lit";
import { sessionContext } from "../context.js";
import { shallowEqual } from "../internal/shallow-equal.js";

export type SessionStoreHost = ReactiveControllerHost & HTMLElement & { session?: PiSession | undefined };

export interface SessionStoreOptions<T> {
  /**
   * When the slice counts as unchanged; default `shallowEqual`: the same value, or an object (or array) whose fields
   * are the same values. Snapshot parts keep their identity while unchanged, so a selector may build a new object of
   * several parts each time.
   */
  equals?: (a: T, b: T) => boolean;
  /**
   * The store to show while no session is in use: the host's own, for standalone use. Without it, `value` is
   * undefined while there is no session.
   */
  fallback?: UiStore;
}

export class SessionStoreController<T> implements ReactiveController {
  readonly #host: SessionStoreHost;
  readonly #select: (snapshot: UiSnapshot) => T;
  readonly #equals: (a: T, b: T) => boolean;
  readonly #consumer: ContextConsumer<typeof sessionContext, SessionStoreHost>;
  readonly #fallback: UiStore | undefined;
  #subscribed: UiStore | undefined;
  #unsubscribe: (() => void) | undefined;
  #value: T | undefined;
  /** The store #value was taken from; kept while the host is disconnected, as #value is. */
  #from: UiStore | undefined;

  constructor(host: SessionStoreHost, select: (snapshot: UiSnapshot) => T, options: SessionStoreOptions<T> = {}) {
    this.#host = host;
    this.#select = select;
    this.#equals = options.equals ?? shallowEqual;
    this.#fallback = options.fallback;
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

  /** The store `value` comes from: the session's, else the fallback; undefined while `value` is. */
  get store(): UiStore | undefined {
    this.#follow();
    return this.#from;
  }

  /**
   * The selected slice of the current snapshot; undefined while there is no store (no session, no fallback). Always
   * of the session in use: read in `willUpdate`, before `hostUpdate` has run, a session assigned since the last
   * render is taken first (else a host would see the slice of the session it just left).
   */
  get value(): T | undefined {
    this.#follow();
    return this.#value;
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

  /**
   * Takes the store's current slice now, requesting an update if it changed: for a host that has just written to
   * its own store (`fallback`), so its next update shows the write (subscribers hear of it only a microtask later).
   */
  refresh(): void {
    // Also before the host is first connected (nothing subscribed yet): the value still shows what it wrote.
    const store = this.#subscribed ?? this.session?.ui ?? this.#fallback;
    if (!store) return;
    if (store !== this.#from) {
      this.#from = store;
      this.#value = undefined;
    }
    if (this.#take(store)) this.#host.requestUpdate();
  }

  /** Switches to a newly assigned session's store while connected (a disconnected host keeps what it showed). */
  #follow(): void {
    if (this.#host.isConnected) this.#sync(false);
  }

  #sync(requestUpdate: boolean): void {
    const store = this.session?.ui ?? this.#fallback;
    // #unsubscribe is set exactly while #subscribed is a store, so an unchanged store needs nothing.
    if (store === this.#subscribed) return;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.#subscribed = store;
    this.#from = store;
    if (store) {
      this.#unsubscribe = store.subscribe(() => {
        if (store === this.#subscribed && this.#take(store)) this.#host.requestUpdate();
      });
      this.#value = this.#select(store.getSnapshot());
    } else {
      this.#value = undefined;
    }
    if (requestUpdate) this.#host.requestUpdate();
  }

  /** Takes the store's current slice; returns whether it changed. */
  #take(store: UiStore): boolean {
    const next = this.#select(store.getSnapshot());
    if (this.#value !== undefined && this.#equals(this.#value, next)) return false;
    this.#value = next;
    return true;
  }
}
