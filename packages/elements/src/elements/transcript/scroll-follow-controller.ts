/**
 * Reading while it streams: the view stays at the newest text unless the reader scrolled up; then the "Jump to latest"
 * button shows, and the article at the top of the reader's view stays where they left it as articles above it fill
 * in, render in full or go light, in every engine (WebKit has no scroll anchoring, and Chromium's does not always pick
 * an article).
 *
 * The host calls `follow()` after each render (in the frame after it, when it renders a burst once a frame),
 * `keepPlace()` when content went in above the view, and binds `onScroll` to its scrolling box. The feed's and the
 * box's sizes are watched here: either changing moves the end (text streaming in, an article laid out as it nears the
 * view, the page resizing the box).
 */
import type { ReactiveController, ReactiveControllerHost } from "lit";

/** How far (px) from the end still counts as "at the newest text". */
const PIN_SLACK = 24;

export interface ScrollFollowOptions {
  /** The scrolling box. */
  base: () => HTMLElement | null;
  /** What grows inside it. */
  feed: () => HTMLElement | null;
  /** The articles, in order. */
  articles: () => HTMLElement[];
  /** The "Jump to latest" button: hidden while the view follows. */
  jump: () => HTMLElement | null;
  /** The reader scrolled; `top` is the article now at the top of the view. */
  scrolled?: (top: HTMLElement) => void;
}

export class ScrollFollowController implements ReactiveController {
  readonly #host: ReactiveControllerHost & { readonly hasUpdated: boolean };
  readonly #options: ScrollFollowOptions;
  #pinned = true;
  #lastScrollTop = 0;
  /** While the reader is up: the article at the top of their view, and its distance from the view's top. */
  #anchor: { article: HTMLElement; offset: number } | undefined;
  #frame: number | undefined;
  #resizes: ResizeObserver | undefined;

  constructor(host: ReactiveControllerHost & { readonly hasUpdated: boolean }, options: ScrollFollowOptions) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  /** Whether the view follows the newest text. */
  get pinned(): boolean {
    return this.#pinned;
  }

  /** Follows the newest text again from the next `follow()` (a new user message brings its turn into view). */
  pin(): void {
    this.#pinned = true;
  }

  /** Scrolls to the newest text and follows it again. */
  scrollToLatest(): void {
    this.#pinned = true;
    this.follow();
  }

  /**
   * While pinned, keeps the newest text in view; else keeps the reader's place. The reader's own scroll is read first,
   * since its scroll event may come after a resize.
   */
  follow(): void {
    const base = this.#options.base();
    if (!base) return;
    this.#read(base);
    if (!this.#pinned) {
      this.#keepAnchor(base);
      return;
    }
    base.scrollTop = base.scrollHeight;
    this.#lastScrollTop = base.scrollTop;
  }

  /** Content went in above the view: a reader who scrolled up keeps their place. */
  keepPlace(): void {
    const base = this.#options.base();
    if (base && !this.#pinned) this.#keepAnchor(base);
  }

  /** Watches the feed's and the box's sizes (once the host's shadow DOM exists). */
  observeSizes(): void {
    // Followed in the next frame, not in the observer's callback: scrolling there lays out articles that come into
    // view (content-visibility), which would resize the feed again within the same delivery (a ResizeObserver loop).
    this.#resizes ??= new ResizeObserver(() => {
      this.#frame ??= requestAnimationFrame(() => {
        this.#frame = undefined;
        this.follow();
      });
    });
    for (const element of [this.#options.feed(), this.#options.base()]) if (element) this.#resizes.observe(element);
  }

  readonly onScroll = (): void => {
    const base = this.#options.base();
    if (!base) return;
    this.#read(base);
    this.#anchor = this.#pinned ? undefined : this.#topArticle(base);
    if (this.#anchor) this.#options.scrolled?.(this.#anchor.article);
  };

  hostConnected(): void {
    if (this.#host.hasUpdated) this.observeSizes();
  }

  hostDisconnected(): void {
    if (this.#frame !== undefined) cancelAnimationFrame(this.#frame);
    this.#frame = undefined;
    this.#resizes?.disconnect();
  }

  /**
   * Whether the reader has left the newest text. Content growing below moves nothing, and content shrinking clamps
   * the view to the end; so a view off the end that moved up is the reader's doing, and a view at the end pins.
   */
  #read(base: HTMLElement): void {
    const atEnd = base.scrollHeight - base.scrollTop - base.clientHeight <= PIN_SLACK;
    if (atEnd) this.#pinned = true;
    else if (base.scrollTop < this.#lastScrollTop - 1) this.#pinned = false;
    this.#lastScrollTop = base.scrollTop;
    // Shown and hidden here, not through a render: this runs after each render, and a render it asked for would
    // render everything again for one button.
    const jump = this.#options.jump();
    if (jump) jump.hidden = this.#pinned;
  }

  /** The first article whose end is below the view's top, and how far its top is from the view's (binary search). */
  #topArticle(base: HTMLElement): { article: HTMLElement; offset: number } | undefined {
    const articles = this.#options.articles();
    const top = base.getBoundingClientRect().top;
    let low = 0;
    let high = articles.length - 1;
    if (high < 0) return undefined;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (articles[mid]!.getBoundingClientRect().bottom > top) high = mid;
      else low = mid + 1;
    }
    const article = articles[low]!;
    return { article, offset: article.getBoundingClientRect().top - top };
  }

  /** Puts the reader's top article back where they left it, if something above it changed size. */
  #keepAnchor(base: HTMLElement): void {
    const anchor = this.#anchor;
    if (!anchor?.article.isConnected) return;
    const moved = anchor.article.getBoundingClientRect().top - base.getBoundingClientRect().top - anchor.offset;
    if (Math.abs(moved) < 0.5) return;
    base.scrollTop += moved;
    this.#lastScrollTop = base.scrollTop;
  }
}
