/** Reading a page through its shadow roots, as the end-to-end browser tests do: what a reader sees, what a query finds. */

/** Every element matching `selector` in `root` and in every open shadow root below it. */
export function deepAll(root: ParentNode, selector: string): Element[] {
  const found: Element[] = [];
  const roots: ParentNode[] = [root];
  while (roots.length > 0) {
    const current = roots.shift()!;
    found.push(...current.querySelectorAll(selector));
    for (const el of current.querySelectorAll("*")) if (el.shadowRoot) roots.push(el.shadowRoot);
  }
  return found;
}

/** The text a reader sees in `node`, its shadow roots included. */
export function deepText(node: Node): string {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? "";
  const el = node as Element;
  const children = [...(el.shadowRoot?.childNodes ?? []), ...node.childNodes];
  return children.map(deepText).join("");
}
