/**
 * Keeps a Lit element in step with one slice of a store (`getSnapshot()` and `subscribe(listener)`): the one mechanism
 * under SessionStoreController (a session's UI store) and ConversationSliceController (its conversation store), which
 * say only which store is in use (`resolve`). The session is the host's own `session` property when set, else the one
 * an ancestor `<pi-session>` provides (context). The host re-renders only when the selected slice changes: snapshot
 * parts keep their identity while unchanged, the stores batch a burst of changes into one notification, and Lit
 * batches `requestUpdate()` into one render.
 *
 * While the host is disconnected nothing is subscribed, and `value` keeps the slice it had.
 */
import { ContextConsumer } from "@lit/context";
import type { PiSession } from "@pi-elements/core";
import type { ReactiveController, ReactiveControllerHost } from "lit";
import { sessionContext } from "../context.js";
import { shallowEqual } from "../internal/shallow-equal.js";

/** What a slice is taken from. */
export interface SliceStore<S> {
  getSnapshot(): S;
  subscribe(listener: () => void): () => void;
}

export type SliceHost = ReactiveControllerHost & HTMLElement & { session?: PiSession | undefined };

export interface StoreSliceOptions<T> {
  /**
   * When the slice counts as unchanged; default `shallowEqual`: the same value, or an object (or array) whose fields
   * are the same values, so a selector may build a new object of several parts each time.
   */
  equals?: (a: T, b: T) => boolean;
  /**
   * How a changed slice reaches the host; by default `update` (the host's `requestUpdate`) is called at once. A host
   * that renders at most once a frame passes its own (pi-transcript).
   */
  changed?: (update: () => void) => void;
}

/** What a subclass says: which store is in use, and what else should make the controller look again. */
export interface StoreSource<S, H> {
  /** The store in use now for `host` in `session` (the host's, the session's, a fallback); undefined without one. */
  resolve(host: H, session: PiSession | undefined): SliceStore<S> | undefined;
  /** Called while the host is connected; calls `resync` when the store in use may have changed. Returns the stop. */
  watch?(resync: () => void): () => void;
}

export class StoreSliceController<S, T, H extends SliceHost = SliceHost> implements ReactiveController {
  protected readonly host: H;
  readonly #select: (snapshot: S) => T;
  readonly #equals: (a: T, b: T) => boolean;
  readonly #changed: (update: () => void) => void;
  readonly #consumer: ContextConsumer<typeof sessionContext, H>;
  #subscribed: SliceStore<S> | undefined;
  #unsubscribe: (() => void) | undefined;
  #value: T | undefined;
  /** The store #value was taken from; kept while the host is disconnected, as #value is. */
  #from: SliceStore<S> | undefined;
  readonly #source: StoreSource<S, H>;
  #unwatch: (() => void) | undefined;

  constructor(host: H, select: (snapshot: S) => T, source: StoreSource<S, H>, options: StoreSliceOptions<T> = {}) {
    this.host = host;
    this.#source = source;
    this.#select = select;
    this.#equals = options.equals ?? shallowEqual;
    this.#changed = options.changed ?? ((update) => update());
    this.#consumer = new ContextConsumer(host, {
      context: sessionContext,
      subscribe: true,
      callback: () => this.sync(true),
    });
    host.addController(this);
  }

  /** The store in use now; undefined without one. */
  protected resolve(): SliceStore<S> | undefined {
    return this.#source.resolve(this.host, this.session);
  }

  /** The session in use: the host's `session` property, else the context's. */
  get session(): PiSession | undefined {
    return this.host.session ?? this.#consumer.value;
  }

  /** The store `value` was taken from; undefined while `value` is. */
  protected get from(): SliceStore<S> | undefined {
    if (this.host.isConnected) this.sync(false);
    return this.#from;
  }

  /**
   * The selected slice of the current snapshot; undefined while there is no store. Always of the store in use: read in
   * `willUpdate`, before `hostUpdate` has run, a session or store assigned since the last render is taken first (else
   * a host would see the slice of the session it just left).
   */
  get value(): T | undefined {
    if (this.host.isConnected) this.sync(false);
    return this.#value;
  }

  /**
   * The selected slice of the store's snapshot as it is now, before a batched notification has reached `value`: for
   * an action that starts from the latest state (a dialog that shows the name pi just took).
   */
  now(): T | undefined {
    const store = this.#subscribed ?? this.resolve();
    return store ? this.#select(store.getSnapshot()) : undefined;
  }

  /**
   * Takes the store's current slice now, requesting an update if it changed: for a host that has just written to its
   * own store, so its next update shows the write (subscribers hear of it only a microtask later). Also before the
   * host is first connected (nothing subscribed yet).
   */
  refresh(): void {
    const store = this.#subscribed ?? this.resolve();
    if (!store) return;
    if (store !== this.#from) {
      this.#from = store;
      this.#value = undefined;
    }
    if (this.#take(store)) this.host.requestUpdate();
  }

  hostConnected(): void {
    this.#unwatch ??= this.#source.watch?.(() => this.sync(true));
    this.sync(true);
  }

  hostDisconnected(): void {
    this.#unwatch?.();
    this.#unwatch = undefined;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.#subscribed = undefined;
  }

  /** Runs before each render, so a newly assigned `session` (or store) is picked up by that same render. */
  hostUpdate(): void {
    this.sync(false);
  }

  readonly #requestUpdate = (): void => this.host.requestUpdate();

  /** Follows the store in use while connected: a new one is subscribed and its slice taken. */
  protected sync(requestUpdate: boolean): void {
    if (!this.host.isConnected) return;
    const store = this.resolve();
    // #unsubscribe is set exactly while #subscribed is a store, so an unchanged store needs nothing.
    if (store === this.#subscribed) return;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.#subscribed = store;
    this.#from = store;
    if (store) {
      this.#unsubscribe = store.subscribe(() => {
        if (store === this.#subscribed && this.#take(store)) this.#changed(this.#requestUpdate);
      });
      this.#value = this.#select(store.getSnapshot());
    } else this.#value = undefined;
    if (requestUpdate) this.host.requestUpdate();
  }

  /** Takes the store's current slice; returns whether it changed. */
  #take(store: SliceStore<S>): boolean {
    const next = this.#select(store.getSnapshot());
    if (this.#value !== undefined && this.#equals(this.#value, next)) return false;
    this.#value = next;
    return true;
  }
}
