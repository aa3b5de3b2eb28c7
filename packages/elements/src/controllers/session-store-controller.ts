/**
 * Keeps a Lit element in step with one slice of a session's UI store. The session is the host's own `session`
 * property when set, else the one provided by an ancestor `<pi-session>` (context). The host re-renders only
 * when the selected slice changes; the store already batches a burst of changes into one notification and Lit
 * batches requestUpdate() into one render, so a burst costs one render.
 */
import { ContextConsumer } from "@lit/context";
import type { PiSession, UiSnapshot } from "@pi-elements/core";
import type { ReactiveController, ReactiveControllerHost } from "lit";
import { sessionContext } from "../context.js";
import { shallowEqual } from "../shallow-equal.js";

export type SessionStoreHost = ReactiveControllerHost & HTMLElement & { session?: PiSession | undefined };

export interface SessionStoreOptions<T> {
  /**
   * When the slice counts as unchanged; default `shallowEqual`: the same value, or an object (or array) whose fields
   * are the same values. Snapshot parts keep their identity while unchanged, so a selector may build a new object of
   * several parts each time.
   */
  equals?: (a: T, b: T) => boolean;
}

export class SessionStoreController<T> implements ReactiveController {
  readonly #host: SessionStoreHost;
  readonly #select: (snapshot: UiSnapshot) => T;
  readonly #equals: (a: T, b: T) => boolean;
  readonly #consumer: ContextConsumer<typeof sessionContext, SessionStoreHost>;
  #subscribed: PiSession | undefined;
  #unsubscribe: (() => void) | undefined;
  #value: T | undefined;

  constructor(host: SessionStoreHost, select: (snapshot: UiSnapshot) => T, options: SessionStoreOptions<T> = {}) {
    this.#host = host;
    this.#select = select;
    this.#equals = options.equals ?? shallowEqual;
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

  /** The selected slice of the current snapshot; undefined while there is no session. */
  get value(): T | undefined {
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

  #sync(requestUpdate: boolean): void {
    const session = this.session;
    // #unsubscribe is set exactly while #subscribed is a session, so an unchanged session needs nothing.
    if (session === this.#subscribed) return;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.#subscribed = session;
    if (session) {
      this.#unsubscribe = session.ui.subscribe(() => this.#onChange(session));
      this.#value = this.#select(session.ui.getSnapshot());
    } else {
      this.#value = undefined;
    }
    if (requestUpdate) this.#host.requestUpdate();
  }

  #onChange(session: PiSession): void {
    if (session !== this.#subscribed) return;
    const next = this.#select(session.ui.getSnapshot());
    if (this.#value !== undefined && this.#equals(this.#value, next)) return;
    this.#value = next;
    this.#host.requestUpdate();
  }
}
