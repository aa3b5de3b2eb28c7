/**
 * A long history arriving at once renders from its end: its last `first` entries for the first paint, then the
 * earlier ones in chunks, each in a task of its own after a frame (so each chunk comes after a paint), each chunk
 * sized to take about `budgetMs` to render. Entries appended later render at once.
 *
 * The host renders `entries.slice(unrendered)`, tells this controller of each snapshot before rendering it
 * (`window`), and hears of each rendered step (`stepRendered`: a reader who scrolled up keeps their place there).
 */
import type { ConversationEntry } from "@pi-elements/core/conversation";
import type { ReactiveController, ReactiveControllerHost } from "lit";
import { appended } from "./entries.js";

export interface HistoryFillOptions {
  /** How many entries the first paint of a history renders. */
  first: number;
  /** How long one chunk of earlier entries should take to render. */
  budgetMs: number;
  /** A chunk of earlier entries has rendered (above what the reader sees). */
  stepRendered: () => void;
}

export class HistoryFillController implements ReactiveController {
  readonly #host: ReactiveControllerHost & { readonly isConnected: boolean };
  readonly #options: HistoryFillOptions;
  /** How many entries at the start are not rendered yet. */
  #unrendered = 0;
  /** The store, and the entries, the window was last set for. */
  #of: unknown;
  #entries: readonly ConversationEntry[] | undefined;
  /** The frame, then the task, of the next step (one of them pends at a time). */
  #frame: number | undefined;
  #task: ReturnType<typeof setTimeout> | undefined;
  #chunk = 100;
  /** When the step being rendered began. */
  #step: { began: number } | undefined;

  constructor(host: ReactiveControllerHost & { readonly isConnected: boolean }, options: HistoryFillOptions) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  /** How many entries at the start wait to be rendered (0 once the history is filled in). */
  get unrendered(): number {
    return this.#unrendered;
  }

  /**
   * The entries about to render, of `store`. A history arriving at once (a new store, one answer with many entries)
   * renders its last `first` entries first; so does one shown again after none (`entries` undefined). Whether the
   * store is another than the last one's.
   */
  window(store: unknown, entries: readonly ConversationEntry[] | undefined): boolean {
    const another = store !== this.#of;
    if (!entries) {
      this.#of = store;
      this.#entries = undefined;
      return another;
    }
    const count = entries.length;
    const fresh = another || !this.#entries;
    const added = fresh ? count : appended(this.#entries!, entries).length;
    this.#of = store;
    this.#entries = entries;
    if (added > this.#options.first) this.#unrendered = Math.max(this.#unrendered, count - this.#options.first);
    this.#unrendered = Math.min(this.#unrendered, count);
    return another;
  }

  hostUpdated(): void {
    const step = this.#step;
    if (step) {
      this.#step = undefined;
      this.#options.stepRendered();
      const ms = Math.max(1, performance.now() - step.began);
      this.#chunk = Math.min(1000, Math.max(20, Math.round((this.#chunk * this.#options.budgetMs) / ms)));
    }
    this.#schedule();
  }

  hostDisconnected(): void {
    if (this.#frame !== undefined) cancelAnimationFrame(this.#frame);
    clearTimeout(this.#task);
    this.#frame = this.#task = undefined;
  }

  #schedule(): void {
    if (this.#unrendered === 0 || this.#frame !== undefined || this.#task !== undefined) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = undefined;
      this.#task = setTimeout(() => {
        this.#task = undefined;
        if (!this.#host.isConnected || this.#unrendered === 0) return;
        this.#step = { began: performance.now() };
        this.#unrendered = Math.max(0, this.#unrendered - this.#chunk);
        this.#host.requestUpdate();
      }, 0);
    });
  }
}
