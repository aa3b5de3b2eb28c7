/**
 * A Markdown text's words as a person reads them on the page: no emphasis markers, fences, heading marks, table pipes
 * or link targets. For what is spoken rather than drawn (the transcript's announcement of a finished answer), through
 * the same lexer (marked) that pi-markdown draws with, so the words are the ones shown.
 */
import { Lexer, type Token, type Tokens } from "marked";

/**
 * How much of the source is read: an announcement needs a sentence or two, and marked's inline rules are quadratic on
 * some runs (`[[[…`, `_a_a…`: issue #33), so a bounded prefix keeps its cost bounded whatever the model wrote.
 */
export const PLAIN_TEXT_SOURCE_CHARS = 1_000;

const BLOCKS = new Set(["paragraph", "heading", "blockquote", "code", "def"]);

/** The words of `markdown` (its first `sourceChars` characters), whitespace collapsed to single spaces. */
export function markdownWords(markdown: string, sourceChars = PLAIN_TEXT_SOURCE_CHARS): string {
  const out: string[] = [];
  const walk = (tokens: readonly Token[] | undefined) => {
    for (const token of tokens ?? []) visit(token);
  };
  const visit = (token: Token) => {
    switch (token.type) {
      case "space":
      case "hr":
      case "br":
        out.push(" ");
        return;
      case "list":
        // An item's text and its nested list are blocks of their own.
        for (const item of (token as Tokens.List).items) {
          for (const part of item.tokens) {
            visit(part);
            out.push(" ");
          }
        }
        return;
      case "table": {
        const table = token as Tokens.Table;
        for (const row of [table.header, ...table.rows]) {
          for (const cell of row) {
            walk(cell.tokens);
            out.push(" ");
          }
        }
        return;
      }
      case "code":
      case "codespan":
      case "escape":
      case "html":
        out.push((token as { text: string }).text);
        break;
      default:
        if ("tokens" in token && token.tokens) walk(token.tokens);
        else if ("text" in token && typeof token.text === "string") out.push(token.text);
    }
    // A block ends its run of words: the next one does not join onto its last word.
    if (BLOCKS.has(token.type) || (token.type === "html" && (token as Tokens.HTML).block)) out.push(" ");
  };
  walk(new Lexer({ gfm: true }).lex(markdown.slice(0, sourceChars)));
  return out.join("").replace(/\s+/g, " ").trim();
}
