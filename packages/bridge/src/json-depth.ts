/**
 * How deeply a JSON text nests, measured on the text before it is parsed: one pass over its characters, counting
 * the brackets outside strings. `JSON.parse` copes with any depth, but `JSON.stringify`, zod and every other
 * recursive walk of the parsed value overflow the stack somewhere past a few thousand levels, and parsing a
 * deeply nested megabyte allocates a lot for nothing; so a record nested deeper than a limit is refused unparsed.
 */

/** The default limit on nesting (objects and arrays) for client frames and the agent's UI requests. */
export const DEFAULT_MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Whether `text` (JSON or not) opens more than `limit` objects or arrays inside one another. Brackets inside JSON
 * strings do not count. Stops at the first level past the limit, so the cost is at most one pass over the text.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth++;
      if (depth > limit) return true;
    } else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && depth > 0) {
      depth--;
    }
  }
  return false;
}
