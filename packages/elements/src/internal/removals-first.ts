/**
 * Lit's `repeat` keeps one element per key, but a single render that both drops keys and adds keys may move an
 * element whose key stays: its head and tail matching reads "old head is the new tail" as a move (old `[c, d]`, new
 * `[b, c]` moves `c` rather than inserting `b` and removing `d`). Moving the element that holds focus blurs it, and a
 * screen reader is told focus changed. A render that only removes, or only inserts, moves nothing.
 *
 * So while focus is inside the list, an update that both drops and adds keys renders twice: first only the items
 * that stay (for `repeat`, removals only), then all of them (insertions only). One render is enough otherwise.
 *
 * Use: the host's `update()` calls `run`, and its `render()` shows `items(...)`.
 */
export class RemovalsFirst<T> {
  readonly #host: { readonly renderRoot: ParentNode };
  readonly #part: string;
  readonly #dataKey: string;
  readonly #key: (item: T) => string;
  /** The items of an update's first render, while it runs. */
  #kept: readonly T[] | undefined;

  /**
   * @param host The element whose `renderRoot` holds the list.
   * @param part The list's part name; `repeat` renders its children, each with `data-<dataKey>` set to its key.
   */
  constructor(host: { readonly renderRoot: ParentNode }, part: string, dataKey: string, key: (item: T) => string) {
    this.#host = host;
    this.#part = part;
    this.#dataKey = dataKey;
    this.#key = key;
  }

  /**
   * Runs the host's update (`update`, its `super.update(changed)`) once, or twice when needed.
   * @param next The items the update will show, in order (called only while focus is inside the list).
   */
  run(next: () => readonly T[], update: () => void): void {
    this.#kept = this.#keptItems(next);
    try {
      if (this.#kept) update();
    } finally {
      this.#kept = undefined;
    }
    update();
  }

  /** What the host renders: `items`, or during the first of two renders only those of them already shown. */
  items(items: readonly T[]): readonly T[] {
    return this.#kept ?? items;
  }

  #keptItems(next: () => readonly T[]): readonly T[] | undefined {
    const list = this.#host.renderRoot.querySelector(`[part~="${this.#part}"]`);
    if (!list?.matches(":focus-within")) return undefined;
    const shown = new Set([...list.children].map((child) => (child as HTMLElement).dataset[this.#dataKey]));
    const items = next();
    const kept = items.filter((item) => shown.has(this.#key(item)));
    // Nothing kept: the focused item is leaving anyway.
    return kept.length > 0 && kept.length < items.length && kept.length < shown.size ? kept : undefined;
  }
}
