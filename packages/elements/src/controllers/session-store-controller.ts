/**
 * Keeps a Lit element in step with one slice of a UI store (StoreSliceController). The store is the session's: the
 * host's own `session` property when set, else the one provided by an ancestor `<pi-session>` (context); without a
 * session, the host's own store (`fallback`), which an element used standalone writes to (then `refresh()` after a
 * write).
 */
import type { UiSnapshot, UiStore } from "@pi-elements/core";
import { type SliceHost, StoreSliceController, type StoreSliceOptions } from "./store-slice-controller.js";

export type SessionStoreHost = SliceHost;

export interface SessionStoreOptions<T> extends StoreSliceOptions<T> {
  /**
   * The store to show while no session is in use: the host's own, for standalone use. Without it, `value` is
   * undefined while there is no session.
   */
  fallback?: UiStore;
}

export class SessionStoreController<T> extends StoreSliceController<UiSnapshot, T> {
  constructor(host: SessionStoreHost, select: (snapshot: UiSnapshot) => T, options: SessionStoreOptions<T> = {}) {
    const { fallback } = options;
    super(host, select, { resolve: (_host, session) => session?.ui ?? fallback }, options);
  }

  /** The store `value` comes from: the session's, else the fallback; undefined while `value` is. */
  get store(): UiStore | undefined {
    return this.from as UiStore | undefined;
  }
}
