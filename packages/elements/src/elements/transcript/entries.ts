/** What the transcript's parts read of a conversation's entries. */
import type { ConversationEntry } from "@pi-elements/core/conversation";

/** The entries of `next` that `prev` lacks: normally the ones appended at the end. */
export function appended(
  prev: readonly ConversationEntry[],
  next: readonly ConversationEntry[],
): readonly ConversationEntry[] {
  if (prev === next) return [];
  const n = prev.length;
  if (n <= next.length && (n === 0 || next[n - 1] === prev[n - 1])) return next.slice(n);
  const known = new Set(prev.map((entry) => entry.key));
  return next.filter((entry) => !known.has(entry.key));
}

/** A message's Markdown: its text blocks. */
export function textOf(blocks: readonly { type: string }[]): string {
  return blocks
    .filter((block): block is { type: "text"; text: string } => block.type === "text")
    .map((block) => block.text)
    .join("\n\n");
}

export function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
