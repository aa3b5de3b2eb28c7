/**
 * The transcript's keys. APG feed: Page Down / Page Up move focus from an article (or from inside one) to the next /
 * previous article of the feed. pi's Ctrl+O, from anywhere inside the host, calls `toggle` (every tool card expands
 * or collapses).
 *
 * The host binds `onFeedKeyDown` to its feed; the Ctrl+O listener is on the host while it is connected.
 */
import type { ReactiveController, ReactiveControllerHost } from "lit";

export class FeedKeysController implements ReactiveController {
  readonly #host: ReactiveControllerHost & HTMLElement;
  readonly #toggle: () => void;

  constructor(host: ReactiveControllerHost & HTMLElement, toggle: () => void) {
    this.#host = host;
    this.#toggle = toggle;
    host.addController(this);
  }

  hostConnected(): void {
    this.#host.addEventListener("keydown", this.#onHostKeyDown);
  }

  hostDisconnected(): void {
    this.#host.removeEventListener("keydown", this.#onHostKeyDown);
  }

  /** Page Down / Page Up from an article of a feed, or from inside one. */
  readonly onFeedKeyDown = (event: KeyboardEvent): void => {
    if (event.key !== "PageDown" && event.key !== "PageUp") return;
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const article = event
      .composedPath()
      .find(
        (node): node is HTMLElement =>
          node instanceof HTMLElement &&
          node.localName === "article" &&
          node.parentElement?.getAttribute("role") === "feed",
      );
    if (!article) return;
    event.preventDefault();
    nextArticle(article, event.key === "PageDown" ? "next" : "previous")?.focus();
  };

  readonly #onHostKeyDown = (event: KeyboardEvent): void => {
    if (event.key.toLowerCase() !== "o" || !event.ctrlKey || event.altKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    this.#toggle();
  };
}

function nextArticle(from: HTMLElement, direction: "next" | "previous"): HTMLElement | null {
  let node = direction === "next" ? from.nextElementSibling : from.previousElementSibling;
  while (node && node.localName !== "article")
    node = direction === "next" ? node.nextElementSibling : node.previousElementSibling;
  return node as HTMLElement | null;
}
