/**
 * A long code cut into chunks of lines, as pi-code-block shows it: each chunk a box the engine lays out and paints
 * only near the view (`content-visibility: auto`), and a growing code changes only its last chunk. The plain text
 * (`chunkLines`, on the page) and the highlighted tree (`chunkTree`, in the highlighter's worker) are cut at the same
 * places, after every `CHUNK_LINES`-th line break, so chunk k of the tree holds exactly the text of chunk k.
 */
import type { Root } from "./highlight.js";

/** Lines per chunk: small enough that one chunk's highlighted tree renders well within a frame. */
export const CHUNK_LINES = 100;

type Node = Root["children"][number];
type Element = Extract<Node, { type: "element" }>;

/**
 * `code` cut after every `CHUNK_LINES`-th line break (the last chunk holds the rest; no chunk is empty). The chunks
 * of `previous` (an earlier code's) but its last are reused, the same strings, where `code` still starts with them:
 * a code that grows costs the cut of its end only.
 */
export function chunkLines(code: string, previous: readonly string[] = []): string[] {
  const chunks: string[] = [];
  let start = 0;
  for (let k = 0; k < previous.length - 1; k++) {
    const chunk = previous[k]!;
    if (!code.startsWith(chunk, start)) break;
    chunks.push(chunk);
    start += chunk.length;
  }
  while (start < code.length) {
    let end = start;
    for (let line = 0; line < CHUNK_LINES; line++) {
      const lineBreak = code.indexOf("\n", end);
      if (lineBreak === -1) {
        end = code.length;
        break;
      }
      end = lineBreak + 1;
    }
    chunks.push(code.slice(start, end));
    start = end;
  }
  return chunks;
}

/**
 * A highlighted tree cut where `chunkLines` cuts its text: an element a line break falls inside is closed at the
 * chunk's end and opened again (a copy with the same classes) at the next chunk's start, so a comment or a string
 * over many lines keeps its colour across chunks.
 */
export function chunkTree(root: Root): Root[] {
  const chunks: Root[] = [];
  let current: Root = { type: "root", children: [] };
  let lines = 0;
  /** The elements the walk is inside, and their copies in the current chunk (made when text first goes there). */
  const open: Element[] = [];
  let copies: Element[] = [];
  const target = (): Node[] => {
    while (copies.length < open.length) {
      const { tagName, properties } = open[copies.length]!;
      const copy: Element = { type: "element", tagName, properties, children: [] };
      (copies.at(-1)?.children ?? current.children).push(copy);
      copies.push(copy);
    }
    return copies.at(-1)?.children ?? current.children;
  };
  const walk = (nodes: readonly Node[]): void => {
    for (const node of nodes) {
      if (node.type === "element") {
        open.push(node);
        walk(node.children);
        open.pop();
        if (copies.length > open.length) copies.length = open.length;
        continue;
      }
      if (node.type !== "text") continue;
      const { value } = node;
      let at = 0;
      while (at < value.length) {
        const lineBreak = value.indexOf("\n", at);
        const end = lineBreak === -1 ? value.length : lineBreak + 1;
        target().push({ type: "text", value: value.slice(at, end) });
        at = end;
        if (lineBreak !== -1 && ++lines === CHUNK_LINES) {
          lines = 0;
          chunks.push(current);
          current = { type: "root", children: [] };
          copies = [];
        }
      }
    }
  };
  walk(root.children);
  if (current.children.length > 0) chunks.push(current);
  return chunks;
}

/** How many nodes a tree holds: what rendering it costs, roughly. */
export function nodeCount(nodes: readonly Node[]): number {
  let count = 0;
  for (const node of nodes) count += 1 + (node.type === "element" ? nodeCount(node.children) : 0);
  return count;
}
