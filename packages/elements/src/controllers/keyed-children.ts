/**
 * A keyed list of child elements, for the lists whose items must keep their DOM node while they stay: toasts,
 * statuses, widgets. Each key gets one element, made once; its attributes and Lit-rendered content are refreshed on
 * every `place()`, and an element whose key left is removed. Elements that stay are not moved when items are
 * appended, inserted or removed around them, so focus, text selection and hover inside one are kept and a screen
 * reader is not told the focused control changed.
 *
 * This is what Lit's `repeat` directive does; it is written here because it is small, while `repeat` and the
 * directive machinery it needs were 0.9 KB of the 32 KB single-file bundle. Unlike `repeat`, a reorder may move more
 * nodes than the minimum; none of these lists reorders in use (statuses are sorted by key, toasts and widgets keep
 * their order).
 */
export class KeyedChildren<T> {
  readonly #tag: string;
  readonly #key: (item: T) => string;
  readonly #update: (element: HTMLElement, item: T, index: number) => void;
  #elements = new Map<string, HTMLElement>();

  /**
   * @param tag The tag of each item's element (`li`, `div`).
   * @param key The item's key; keys are unique within one list.
   * @param update Brings an item's element up to date: its attributes, and its content with Lit's `render()`.
   */
  constructor(tag: string, key: (item: T) => string, update: (element: HTMLElement, item: T, index: number) => void) {
    this.#tag = tag;
    this.#key = key;
    this.#update = update;
  }

  /** Makes `parent`'s children the elements of `items`, in order. `parent` holds nothing else. */
  place(parent: Element, items: readonly T[]): void {
    const elements = new Map<string, HTMLElement>();
    items.forEach((item, index) => {
      const key = this.#key(item);
      const element = this.#elements.get(key) ?? document.createElement(this.#tag);
      elements.set(key, element);
      this.#update(element, item, index);
    });
    // Removals first, so the elements that stay are already in order for appends and removals.
    const kept = new Set<Element>(elements.values());
    for (const child of [...parent.children]) if (!kept.has(child)) child.remove();
    let next = parent.firstElementChild;
    for (const element of elements.values()) {
      if (element === next) next = element.nextElementSibling;
      else parent.insertBefore(element, next);
    }
    this.#elements = elements;
  }
}
