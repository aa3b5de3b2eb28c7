/** Loads highlight.ts once for every code block on the page, on the first request. */
import type { highlight } from "./highlight.js";

export type Highlight = typeof highlight;

let loading: Promise<Highlight> | undefined;
let loaded: Highlight | undefined;

/** The highlighter if it has loaded, else undefined (call `loadHighlighter` to load it). */
export function loadedHighlighter(): Highlight | undefined {
  return loaded;
}

/** Starts loading the highlighter (once) and resolves with it. */
export function loadHighlighter(): Promise<Highlight> {
  loading ??= import("./highlight.js").then((module) => {
    loaded = module.highlight;
    return loaded;
  });
  return loading;
}
