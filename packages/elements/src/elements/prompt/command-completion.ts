/**
 * Slash-command completion for pi-prompt: which text asks for completion, and which of pi's commands match it.
 * Pure functions, so each rule is tested on its own; the element keeps the list, the keys and the rendering.
 */
import type { SlashCommand } from "@pi-elements/core";

/** A command as the completion list shows it. */
export interface CompletionItem {
  name: string;
  description: string | undefined;
  source: string | undefined;
  /** pi's hint for the command's arguments, when it gives one (prompt templates). */
  argumentHint: string | undefined;
}

/**
 * The command name being typed: the text after a leading "/" while the caret is still in that first word (no
 * whitespace typed yet). Undefined when the text asks for no completion.
 */
export function completionQuery(value: string, caret: number): string | undefined {
  if (!value.startsWith("/")) return undefined;
  const word = /^\/\S*/.exec(value)?.[0] ?? "/";
  if (caret < 1 || caret > word.length) return undefined;
  return word.slice(1);
}

/** pi's commands as items: anything without a string name is left out, fields of the wrong type are dropped. */
export function completionItems(commands: readonly SlashCommand[] | unknown): CompletionItem[] {
  if (!Array.isArray(commands)) return [];
  const items: CompletionItem[] = [];
  for (const command of commands as unknown[]) {
    if (typeof command !== "object" || command === null) continue;
    const { name, description, source, argumentHint } = command as Record<string, unknown>;
    if (typeof name !== "string" || name === "") continue;
    items.push({
      name,
      description: typeof description === "string" && description !== "" ? description : undefined,
      source: typeof source === "string" ? source : undefined,
      argumentHint: typeof argumentHint === "string" && argumentHint !== "" ? argumentHint : undefined,
    });
  }
  return items;
}

/**
 * The items that match `query`, best first: the exact name, then names that start with it, then names that contain
 * it; case-insensitive, pi's order kept within each group. An empty query matches everything.
 */
export function matchCompletions(items: readonly CompletionItem[], query: string): CompletionItem[] {
  const needle = query.toLowerCase();
  const ranked: CompletionItem[][] = [[], [], []];
  for (const item of items) {
    const name = item.name.toLowerCase();
    if (name === needle) ranked[0]?.push(item);
    else if (name.startsWith(needle)) ranked[1]?.push(item);
    else if (name.includes(needle)) ranked[2]?.push(item);
  }
  return ranked.flat();
}

/** The text after choosing `name` for the command being typed: "/name " and whatever followed the first word. */
export function applyCompletion(value: string, name: string): { value: string; caret: number } {
  const word = /^\/\S*/.exec(value)?.[0] ?? "/";
  const rest = value.slice(word.length).replace(/^\s+/, "");
  const head = `/${name} `;
  return { value: head + rest, caret: head.length };
}
