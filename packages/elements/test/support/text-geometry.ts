/** Where text is drawn, for tests of rendered (bidi) order rather than attributes. */

/** The horizontal centre of the first drawn occurrence of `char` among the text under `root`. */
export function xOf(root: Node, char: string): number {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const index = node.textContent!.indexOf(char);
    if (index < 0) continue;
    const range = document.createRange();
    range.setStart(node, index);
    range.setEnd(node, index + char.length);
    const box = range.getBoundingClientRect();
    return box.left + box.width / 2;
  }
  throw new Error(`${char} is not drawn`);
}
