/**
 * Lexes a growing Markdown message without re-lexing what is already final. marked's block tokens are kept once no
 * appended text can change them; each update lexes only the tail from the last block that can still change, so the
 * cost of an update follows the size of that block, not of the whole message.
 *
 * Which blocks are final: every top-level block before the last blank line that precedes the last block. Text
 * appended can extend the last block (a paragraph, an open fence, a list that a later indented line would continue,
 * an indented code block, an HTML block), and can turn a block that directly follows another into a lazy
 * continuation of it (`- a` then `*` is two lists until `**` makes it one), but it cannot reach across a blank line
 * followed by a block whose first line is already written (until then `1` may become `1.`, an item of the list
 * before the blank line). Two
 * things fall outside that rule and make the lexer start over from the top: a text that does not extend the one
 * before it (an edit rather than an append), and a link reference definition (`[id]: url`), which changes how
 * earlier text reads; a message with one is lexed whole on every update.
 *
 * While streaming, the last block is repaired before it is lexed (remend: unterminated emphasis, inline code,
 * links and images are closed) so that half a `**bold` already shows bold; the repair never reaches the final
 * blocks, which are lexed from the text as written.
 */
import { Lexer, type MarkedOptions, type Token } from "marked";
import remend from "remend";

/** A block ready to render: marked's token, and whether it is the still-growing last block of a streaming text. */
export interface Block {
  readonly token: Token;
  /** The block is at the end of a text still streaming: it may grow or change with the next update. */
  readonly open: boolean;
}

const options: MarkedOptions = { gfm: true, breaks: false };

/** Lexes `text` whole; a lexer that gives up (a stack overflow on thousands of nested quotes) yields one text block. */
function lex(text: string): Token[] {
  try {
    return new Lexer(options).lex(text);
  } catch {
    // The defined outcome for input too deeply nested for the lexer: the text shows as written, unformatted.
    return text === "" ? [] : [{ type: "paragraph", raw: text, text, tokens: [{ type: "text", raw: text, text }] }];
  }
}

/** Repairs unterminated inline Markdown at the end of a streaming block. Links without their URL show their text. */
export function repair(text: string): string {
  return remend(text, { linkMode: "text-only" });
}

/**
 * Whether `tokens[index]` is a blank line: a space token holding one, counting the newline that ends the token before
 * it (marked also gives a space token for the trailing whitespace of a line, which does not close a list item).
 */
function isBlankLine(tokens: readonly Token[], index: number): boolean {
  const token = tokens[index];
  if (token?.type !== "space") return false;
  const before = index === 0 ? "\n" : (tokens[index - 1]?.raw.slice(-1) ?? "");
  return /\n[ \t]*\n/.test(before + token.raw);
}

/** The blocks of a text: the final ones (an array that only grows until the lexer starts over), then the rest. */
export interface Blocks {
  /** The same array from update to update while the text grows; a new one when the lexer started over. */
  readonly final: readonly Block[];
  readonly rest: readonly Block[];
}

export class BlockLexer {
  /** The final blocks, and the text they were lexed from. */
  #final: Block[] = [];
  #finalText = "";
  /** Whether a reference definition was seen: then every update lexes the whole text. */
  #whole = false;
  /** What the last update returned, and for which input. */
  #last: { text: string; streaming: boolean; blocks: Blocks } | undefined;

  /** How many characters the last update lexed (for tests and benchmarks: it stays small while a long text streams). */
  lexedLength = 0;

  /** The blocks of `text`; `streaming` repairs the last one (see the module comment). */
  update(text: string, streaming: boolean): Blocks {
    const normalized = text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
    if (this.#last && this.#last.text === normalized && this.#last.streaming === streaming) return this.#last.blocks;
    if (this.#whole || !normalized.startsWith(this.#finalText)) this.#restart();
    const tail = normalized.slice(this.#finalText.length);
    let tokens = lex(tail);
    this.lexedLength = tail.length;
    if (tokens.some((token) => token.type === "def")) {
      // A definition changes how earlier references read: lex the whole text, and keep nothing as final.
      this.#restart();
      this.#whole = true;
      tokens = lex(normalized);
      this.lexedLength = normalized.length;
      return this.#remember(normalized, streaming, tokens, normalized);
    }
    // The raws of marked's top-level tokens add up to its input; if they ever do not, nothing is promoted.
    if (tokens.map((token) => token.raw).join("") !== tail) return this.#remember(normalized, streaming, tokens, tail);
    // Final: everything up to the last blank line before the last block (see the module comment).
    let lastBlock = tokens.length - 1;
    while (lastBlock > 0 && tokens[lastBlock]?.type === "space") lastBlock--;
    // A block whose first line is not finished may still turn out to continue the one before the blank line (`1`
    // becomes `1.`, an item of the list above): then that block is not final either.
    if (!tokens[lastBlock]?.raw.includes("\n") && !tokens.slice(lastBlock + 1).some((t) => t.raw.includes("\n"))) {
      lastBlock--;
      while (lastBlock > 0 && tokens[lastBlock]?.type === "space") lastBlock--;
    }
    let blank = lastBlock - 1;
    while (blank >= 0 && !isBlankLine(tokens, blank)) blank--;
    const promoted = blank >= 0 ? tokens.slice(0, blank + 1) : [];
    for (const token of promoted) this.#final.push({ token, open: false });
    this.#finalText += promoted.map((token) => token.raw).join("");
    const rest = tokens.slice(promoted.length);
    return this.#remember(
      normalized,
      streaming,
      rest,
      tail.slice(tail.length - rest.map((t) => t.raw).join("").length),
    );
  }

  #restart(): void {
    this.#final = [];
    this.#finalText = "";
    this.#whole = false;
  }

  /**
   * The final blocks and the rest, remembered for the next update. While streaming the rest is lexed again from its
   * repaired text, and its last block (with the space after it) is open.
   */
  #remember(text: string, streaming: boolean, rest: Token[], restText: string): Blocks {
    const tokens = streaming && restText.trim() !== "" ? lex(repair(restText)) : rest;
    let last = tokens.length - 1;
    while (last > 0 && tokens[last]?.type === "space") last--;
    const blocks = {
      final: this.#final,
      rest: tokens.map((token, index) => ({ token, open: streaming && index >= last })),
    };
    this.#last = { text, streaming, blocks };
    return blocks;
  }
}
