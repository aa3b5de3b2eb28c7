/**
 * Lit's `repeat` keeps one element per key, but a single render that both drops keys and adds keys may move an
 * element whose key stays: its head and tail matching reads "old head is the new tail" as a move (old `[c, d]`, new
 * `[b, c]` moves `c` rather than inserting `b` and removing `d`). Moving the element that holds focus blurs it, and a
 * screen reader is told focus changed. A render that only removes, or only inserts, moves nothing.
 *
 * So while focus is inside `list`, an element whose update both drops and adds keys renders twice in that update:
 * first only the items that stay (for `repeat`, removals only), then all of them (insertions only). This returns the
 * items for that first render, or undefined when one render is enough.
 *
 * @param list The element whose children `repeat` renders, each with `data-<dataKey>` set to its key.
 * @param next The items the update will show, in order (called only while focus is inside `list`).
 */
export function removalsFirst<T>(
  list: Element | null,
  dataKey: string,
  next: () => readonly T[],
  key: (item: T) => string,
): readonly T[] | undefined {
  if (!list?.matches(":focus-within")) return undefined;
  const shown = new Set([...list.children].map((child) => (child as HTMLElement).dataset[dataKey]));
  const items = next();
  const kept = items.filter((item) => shown.has(key(item)));
  // Nothing kept: the focused item is leaving anyway.
  return kept.length > 0 && kept.length < items.length && kept.length < shown.size ? kept : undefined;
}
