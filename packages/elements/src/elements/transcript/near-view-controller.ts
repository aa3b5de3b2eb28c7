/**
 * Which articles of a long feed render in full. The DOM stays bounded: the newest `tail` entries, and at most `max`
 * others that came near the view (within a viewport's height of it, by an IntersectionObserver on the scrolling box)
 * or took focus, render in full; the host renders every other one light. Articles in view never go light.
 *
 * The host's articles carry their entry's key as `data-key`; it calls `watch()` once its shadow DOM exists (and this
 * controller again when it is connected again), `watchArticles()` after each render, and `fullAt()` while rendering.
 */
import type { ConversationEntry } from "@pi-elements/core/conversation";
import type { ReactiveController, ReactiveControllerHost } from "lit";

export interface NearViewOptions {
  /** The newest this many entries always render in full. */
  tail: number;
  /** At most this many others render in full (the ones that came near most recently, and any in view). */
  max: number;
  /** The scrolling box (the observer's root). */
  root: () => HTMLElement | null;
  /** The feed's articles, in order. */
  articles: () => HTMLElement[];
  /** The entries the host shows. */
  entries: () => readonly ConversationEntry[];
}

export class NearViewController implements ReactiveController {
  readonly #host: ReactiveControllerHost & { readonly hasUpdated: boolean };
  readonly #options: NearViewOptions;
  /** Entries outside the tail rendered in full (they came near the view), oldest first; and the ones in view. */
  readonly #near = new Set<string>();
  readonly #inView = new Set<string>();
  #observer: IntersectionObserver | undefined;
  #watched = new WeakSet<Element>();
  /** The entries and window whose articles the observer watches. */
  #watchedEntries: readonly ConversationEntry[] | undefined;
  #watchedFrom = -1;

  constructor(host: ReactiveControllerHost & { readonly hasUpdated: boolean }, options: NearViewOptions) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  /** Whether the entry `key`, at `index` of `count` rendered entries, renders in full. */
  fullAt(key: string, index: number, count: number): boolean {
    return index >= count - this.#options.tail || this.#near.has(key) || this.#inView.has(key);
  }

  /** Forgets which entries came near (another conversation is shown). */
  clear(): void {
    this.#near.clear();
  }

  /** A new observer of which articles are near the view, watching every article there is. */
  watch(): void {
    this.#observer?.disconnect();
    this.#watched = new WeakSet();
    this.#watchedEntries = undefined;
    this.#inView.clear();
    this.#observer = new IntersectionObserver(this.#onRecords, {
      root: this.#options.root(),
      rootMargin: "100% 0px",
    });
    this.watchArticles(0);
  }

  /** Watches the articles a render added (a new history, a fill step with `from` entries still unrendered, a message). */
  watchArticles(from: number): void {
    const entries = this.#options.entries();
    if (!this.#observer || (entries === this.#watchedEntries && from === this.#watchedFrom)) return;
    this.#watchedEntries = entries;
    this.#watchedFrom = from;
    for (const article of this.#options.articles()) {
      if (this.#watched.has(article)) continue;
      this.#watched.add(article);
      this.#observer.observe(article);
    }
  }

  /** An article that takes focus (Page Up / Down, a click, a screen reader's focus) renders in full. */
  readonly onFocusIn = (event: Event): void => {
    const article = event.target instanceof HTMLElement ? event.target.closest("article") : null;
    const key = article?.dataset.key;
    if (key !== undefined && this.#bringNear(key)) this.#host.requestUpdate();
  };

  /**
   * The articles in the view, from `top` down, render in full even if the observer missed the scroll: Firefox (ESR
   * 153) now and then reports no intersection change after a programmatic scroll of a box in a shadow root until the
   * next scroll, which left a reader who jumped far up looking at light articles.
   */
  bringViewNear(top: HTMLElement): void {
    const base = this.#options.root();
    if (!base) return;
    const bottom = base.getBoundingClientRect().bottom;
    let changed = false;
    for (let article: Element | null = top; article; article = article.nextElementSibling) {
      if (!(article instanceof HTMLElement) || article.localName !== "article") continue;
      if (article.getBoundingClientRect().top >= bottom) break;
      const key = article.dataset.key;
      if (key !== undefined && article.querySelector("[data-light]")) changed = this.#bringNear(key) || changed;
    }
    if (changed) this.#host.requestUpdate();
  }

  hostConnected(): void {
    if (this.#host.hasUpdated) this.watch();
  }

  hostDisconnected(): void {
    this.#observer?.disconnect();
    this.#observer = undefined;
  }

  /** Articles coming near render in full and stay so while among the `max` that came near most recently. */
  readonly #onRecords = (records: IntersectionObserverEntry[]): void => {
    // What is in view first, for every record: an article that left it can make room for one that came near in the
    // same delivery (a reader who jumped from the end to the top).
    const came: string[] = [];
    for (const record of records) {
      const key = (record.target as HTMLElement).dataset.key;
      if (key === undefined) continue;
      if (record.isIntersecting) {
        this.#inView.add(key);
        came.push(key);
      } else this.#inView.delete(key);
    }
    let changed = false;
    for (const key of came) changed = this.#bringNear(key) || changed;
    if (changed) this.#host.requestUpdate();
  };

  /** Marks `key` as the latest near the view; whether that, or making room for it, changes what renders in full. */
  #bringNear(key: string): boolean {
    const had = this.#near.delete(key);
    this.#near.add(key);
    let changed = !had && !this.#inTail(key);
    for (const old of this.#near) {
      if (this.#near.size <= this.#options.max) break;
      if (old === key || this.#inView.has(old)) continue;
      this.#near.delete(old);
      changed ||= !this.#inTail(old);
    }
    return changed;
  }

  #inTail(key: string): boolean {
    const entries = this.#options.entries();
    const last = Math.max(0, entries.length - this.#options.tail);
    for (let i = entries.length - 1; i >= last; i--) if (entries[i]!.key === key) return true;
    return false;
  }
}
