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
 *
 * Limits (`MarkdownLimits`): marked's inline rules take time quadratic in the emphasis and link delimiters of a run
 * (300,000 characters of `_a_a…` took minutes), and its lists time and memory steep in their nesting (500 nested
 * items ran out of memory). So an inline run (a paragraph's, heading's, item's or cell's text) that is too long or
 * holds too many delimiters shows as written; the text from a line nested too deep to its end shows as written; and
 * one update formats inline runs for at most `sliceMs`, leaving the rest as written until `resume()` formats them
 * in a later task. While streaming, the runs of the blocks lexed again at every update are formatted once: a run
 * of the last update with the same text (and the same link definitions) is taken as it was formatted, and the runs
 * of the open block, the one growing, are always formatted in the update, so a block never shows its markup for a
 * moment on a busy machine. The open block is repaired only within the inline limits (remend is quadratic in brackets). A block shown as written because of a limit is `limited`; one waiting for a slice is `pending`.
 */
import { Lexer, type MarkedOptions, type Token, Tokenizer, type Tokens } from "marked";
import remend from "remend";

/** A block ready to render: marked's token, and whether it is the still-growing last block of a streaming text. */
export interface Block {
  readonly token: Token;
  /** The block is at the end of a text still streaming: it may grow or change with the next update. */
  readonly open: boolean;
  /** Some of it shows as written because of a limit (see `MarkdownLimits`). */
  readonly limited?: boolean;
  /** Some of its inline text shows as written until a later slice formats it (`BlockLexer.resume`). */
  readonly pending?: boolean;
}

/** What pi-markdown formats, and how much per update (see the module comment). Each can be `Infinity`. */
export interface MarkdownLimits {
  /** An inline run longer than this many characters shows as written. */
  readonly inlineChars: number;
  /** An inline run holding more than this many of `*`, `_`, `~`, `` ` ``, `[`, `]` and `<` shows as written. */
  readonly inlineDelimiters: number;
  /** From a line whose leading spaces, tabs and `>` reach this many columns (outside a code fence), as written. */
  readonly nestingColumns: number;
  /** A table's rows past this many show as written after it (a browser lays a table out whole, every row at once). */
  readonly tableRows: number;
  /** How long (ms) one update formats inline runs; the rest wait for `resume()`. */
  readonly sliceMs: number;
}

/**
 * The defaults, chosen on the measured costs (bench/hostile.ts): 1,000 delimiters lex in about 6 ms in Node (2,000 in
 * 23 ms: quadratic); 64 columns is 32 levels of two-space lists, twice what pi-markdown draws (MAX_DEPTH); a table
 * of 2,000 rows took about 340 ms to render, style and lay out in Chromium, one of 200 about a tenth of it.
 */
export const MARKDOWN_LIMITS: MarkdownLimits = Object.freeze({
  inlineChars: 20_000,
  inlineDelimiters: 1_000,
  nestingColumns: 64,
  tableRows: 200,
  sliceMs: 8,
});

/** No limit at all: what a person asks for with "Format it" (it may keep the page busy). */
export const NO_LIMITS: MarkdownLimits = Object.freeze({
  inlineChars: Number.POSITIVE_INFINITY,
  inlineDelimiters: Number.POSITIVE_INFINITY,
  nestingColumns: Number.POSITIVE_INFINITY,
  tableRows: Number.POSITIVE_INFINITY,
  sliceMs: Number.POSITIVE_INFINITY,
});

const options: MarkedOptions = { gfm: true, breaks: false };

/** A setext heading's underline (`===` or `---` on the line after its text), or something like it. */
const UNDERLINE = /\n {0,3}(?:=+|-+)[ \t]*(?:\n|$)/;
/** A blank line, which a setext heading's text cannot hold. */
const BLANK_LINE = /\n[^\S\n]*\n/;

/**
 * marked's tokenizer, but for a setext heading first asks whether the text before the next blank line has an
 * underline at all. marked's rule for one reads the text lazily a character at a time, which WebKit's regular
 * expressions took 156 ms over for a 300,000-character line (V8: about 1 ms); at every streamed update, twice. A
 * text with an underline goes to marked's rule as before. One per Lexer (a Lexer makes its tokenizer its own).
 */
function tokenizer(): Tokenizer {
  const tokenizer = new Tokenizer();
  const lheading = tokenizer.lheading;
  tokenizer.lheading = function (this: Tokenizer, src: string) {
    const blank = src.search(BLANK_LINE);
    return UNDERLINE.test(blank === -1 ? src : src.slice(0, blank + 1)) ? lheading.call(this, src) : undefined;
  };
  return tokenizer;
}

/** A Lexer with pi-markdown's options (and a tokenizer of its own). */
const newLexer = () => new Lexer({ ...options, tokenizer: tokenizer() });

/** A token pi-markdown's renderer shows as its `raw` text, as written (an unknown type: render.ts's default). */
const asWritten = (text: string): Token => ({ type: "as-written", raw: text }) as unknown as Token;

/** What a run's formatting depends on besides its text: the link definitions of its lexer. */
const runKey = (job: InlineJob) => `${Object.keys(job.lexer.tokens.links ?? {}).join("\n")}\u0000${job.src}`;

/** One inline run marked queued and this lexer has not formatted yet, with the lexer (and its links) it belongs to. */
interface InlineJob {
  readonly lexer: Lexer;
  readonly src: string;
  readonly tokens: Token[];
}

/** What lexing a text's blocks gave: its top-level tokens, those with a run past a limit, and the runs to format. */
interface Lexed {
  tokens: Token[];
  limited: Set<Token>;
  runs: Map<Token, InlineJob[]>;
}

/** Counts `*`, `_`, `~`, `` ` ``, `[`, `]` and `<` in `text`, stopping once past `max`. */
function delimiters(text: string, max: number): number {
  let count = 0;
  for (let i = 0; i < text.length && count <= max; i++) {
    const c = text.charCodeAt(i);
    // * _ ~ ` [ ] <
    if (c === 42 || c === 95 || c === 126 || c === 96 || c === 91 || c === 93 || c === 60) count++;
  }
  return count;
}

/** Whether `text`, as one inline run, is past the limits (too long, or too many delimiters to format in time). */
function pastInlineLimits(text: string, limits: MarkdownLimits): boolean {
  return text.length > limits.inlineChars || delimiters(text, limits.inlineDelimiters) > limits.inlineDelimiters;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const NESTING = /^[ \t>]*/;

/** Where the first line nested `columns` deep or more starts (outside fences), or -1. */
function deepLine(text: string, columns: number): number {
  if (!Number.isFinite(columns) || text.length < columns) return -1;
  let fence: string | undefined;
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end);
    const opened = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      if (opened !== undefined && opened[0] === fence[0] && opened.length >= fence.length) fence = undefined;
    } else if (opened !== undefined) fence = opened;
    else {
      const prefix = NESTING.exec(line)?.[0] ?? "";
      let width = 0;
      for (const c of prefix) width += c === "\t" ? 4 - (width % 4) : 1;
      if (width >= columns && prefix.length < line.length) return start;
    }
    start = end + 1;
  }
  return -1;
}

/**
 * `tokens` with every table past `rows` rows cut after its last row kept (in quotes and list items too): the lines of
 * the rest follow it as written. The raws of the two parts add up to the table's. Whether any was cut.
 */
function cutTables(tokens: Token[], rows: number): boolean {
  let cut = false;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.type === "blockquote" || token.type === "list_item") {
      if (cutTables((token as Tokens.Blockquote).tokens, rows)) cut = true;
    } else if (token.type === "list") {
      for (const item of (token as Tokens.List).items) if (cutTables(item.tokens, rows)) cut = true;
    } else if (token.type === "table" && (token as Tokens.Table).rows.length > rows) {
      const table = token as Tokens.Table;
      // One line a row, after the header's line and the delimiter's.
      const kept = `${table.raw.split("\n", 2 + rows).join("\n")}\n`;
      if (kept.length >= table.raw.length) continue;
      const rest = table.raw.slice(kept.length);
      table.rows = table.rows.slice(0, rows);
      table.raw = kept;
      tokens.splice(i + 1, 0, asWritten(rest));
      i++;
      cut = true;
    }
  }
  return cut;
}

/** Every array of inline tokens under `token` (a paragraph's, an item's text, a table's cells), for `found`. */
function collectRuns(token: object, top: Token, found: Map<Token[], Token>): void {
  for (const [key, value] of Object.entries(token)) {
    if (!Array.isArray(value)) continue;
    if (key === "tokens") found.set(value as Token[], top);
    for (const item of value) {
      if (Array.isArray(item)) for (const cell of item) collectRuns(cell as object, top, found);
      else if (typeof item === "object" && item !== null) collectRuns(item as object, top, found);
    }
  }
}

/**
 * The block tokens of `text` within `limits`, their inline runs queued, not formatted. A lexer that gives up (a stack
 * overflow on thousands of nested quotes) yields the text as written.
 */
function lexBlocks(text: string, limits: MarkdownLimits): Lexed {
  const lexed: Lexed = { tokens: [], limited: new Set(), runs: new Map() };
  if (text === "") return lexed;
  const deep = deepLine(text, limits.nestingColumns);
  const lexer = newLexer();
  try {
    lexer.blockTokens(deep === -1 ? text : text.slice(0, deep), lexer.tokens);
  } catch {
    // The defined outcome for input too deeply nested for the lexer: the text shows as written, unformatted.
    const token = asWritten(text);
    lexed.tokens = [token];
    lexed.limited.add(token);
    return lexed;
  }
  lexed.tokens = [...lexer.tokens];
  if (Number.isFinite(limits.tableRows)) {
    for (let i = 0; i < lexed.tokens.length; i++) {
      const token = lexed.tokens[i]!;
      const one = [token];
      if (!cutTables(one, limits.tableRows)) continue;
      // A top-level table is two blocks now, and the one limited (its note after it) is the part as written.
      lexed.tokens.splice(i, 1, ...one);
      lexed.limited.add(token.type === "table" ? one[1]! : token);
      i += one.length - 1;
    }
  }
  if (deep !== -1) {
    const token = asWritten(text.slice(deep));
    lexed.tokens.push(token);
    lexed.limited.add(token);
  }
  const queue = lexer.inlineQueue;
  lexer.inlineQueue = [];
  if (queue.length === 0) return lexed;
  const tops = new Map<Token[], Token>();
  for (const token of lexed.tokens) collectRuns(token, token, tops);
  for (const { src, tokens } of queue) {
    const top = tops.get(tokens);
    if (!top) continue;
    // Shown as written until formatted (and for good when past a limit).
    tokens.push(asWritten(src));
    if (pastInlineLimits(src, limits)) {
      lexed.limited.add(top);
      continue;
    }
    const runs = lexed.runs.get(top);
    if (runs) runs.push({ lexer, src, tokens });
    else lexed.runs.set(top, [{ lexer, src, tokens }]);
  }
  return lexed;
}

/** Formats one inline run in place, as marked's own `lex` does after its block pass. */
function formatRun({ lexer, src, tokens }: InlineJob): void {
  tokens.length = 0;
  lexer.state.inRawBlock = false;
  lexer.inlineTokens(src, tokens);
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
  #limits: MarkdownLimits;
  /** Inline runs left for a later slice, by the top-level token they are in: of final blocks, and of the rest. */
  #pendingFinal = new Map<Token, InlineJob[]>();
  #pendingRest = new Map<Token, InlineJob[]>();
  /** The runs of the last update's rest as formatted, by `runKey`; and this update's, as they are formatted. */
  #formatted = new Map<string, Token[]>();
  #formatting = new Map<string, Token[]>();

  /** How many characters the last update lexed (for tests and benchmarks: it stays small while a long text streams). */
  lexedLength = 0;

  constructor(limits: MarkdownLimits = MARKDOWN_LIMITS) {
    this.#limits = limits;
  }

  /** The limits; setting others lexes the next update's text from the start with them. */
  get limits(): MarkdownLimits {
    return this.#limits;
  }
  set limits(limits: MarkdownLimits) {
    if (limits === this.#limits) return;
    this.#limits = limits;
    this.#restart();
    this.#last = undefined;
  }

  /** Whether inline runs wait for `resume()`. */
  get pending(): boolean {
    return this.#pendingFinal.size > 0 || this.#pendingRest.size > 0;
  }

  /** The blocks of `text`; `streaming` repairs the last one (see the module comment). */
  update(text: string, streaming: boolean): Blocks {
    const normalized = text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
    if (this.#last && this.#last.text === normalized && this.#last.streaming === streaming) return this.#last.blocks;
    const deadline = performance.now() + this.#limits.sliceMs;
    if (this.#whole || !normalized.startsWith(this.#finalText)) this.#restart();
    const tail = normalized.slice(this.#finalText.length);
    let lexed = lexBlocks(tail, this.#limits);
    const tokens = lexed.tokens;
    this.lexedLength = tail.length;
    if (tokens.some((token) => token.type === "def")) {
      // A definition changes how earlier references read: lex the whole text, and keep nothing as final.
      this.#restart();
      this.#whole = true;
      lexed = lexBlocks(normalized, this.#limits);
      this.lexedLength = normalized.length;
      return this.#remember(normalized, streaming, lexed, lexed.tokens, normalized, deadline);
    }
    // The raws of marked's top-level tokens add up to its input; if they ever do not, nothing is promoted.
    if (tokens.map((token) => token.raw).join("") !== tail)
      return this.#remember(normalized, streaming, lexed, tokens, tail, deadline);
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
    this.#format(lexed, promoted, deadline, this.#pendingFinal);
    for (const token of promoted) this.#final.push(this.#blockOf(token, lexed, false));
    this.#finalText += promoted.map((token) => token.raw).join("");
    const rest = tokens.slice(promoted.length);
    return this.#remember(
      normalized,
      streaming,
      lexed,
      rest,
      tail.slice(tail.length - rest.map((t) => t.raw).join("").length),
      deadline,
    );
  }

  /**
   * Formats the inline runs that wait, for one slice (at least one run: each is bounded by the limits). The blocks
   * again when any changed (new Block objects for those, and a new `final` array if one of them is final), else
   * undefined.
   */
  resume(): Blocks | undefined {
    const last = this.#last;
    if (!last || !this.pending) return undefined;
    const deadline = performance.now() + this.#limits.sliceMs;
    const changed = new Set<Token>();
    let first = true;
    for (const pending of [this.#pendingFinal, this.#pendingRest]) {
      for (const [token, jobs] of pending) {
        while (jobs.length > 0 && (first || performance.now() < deadline)) {
          const job = jobs.shift()!;
          formatRun(job);
          if (pending === this.#pendingRest) this.#formatted.set(runKey(job), job.tokens);
          first = false;
          changed.add(token);
        }
        if (jobs.length === 0) pending.delete(token);
        else break;
      }
    }
    if (changed.size === 0) return undefined;
    const again = (block: Block): Block =>
      changed.has(block.token)
        ? { ...block, pending: this.#pendingFinal.has(block.token) || this.#pendingRest.has(block.token) || undefined }
        : block;
    if (last.blocks.final.some((block) => changed.has(block.token))) this.#final = this.#final.map(again);
    const blocks = { final: this.#final, rest: last.blocks.rest.map(again) };
    this.#last = { ...last, blocks };
    return blocks;
  }

  #restart(): void {
    this.#final = [];
    this.#finalText = "";
    this.#whole = false;
    this.#pendingFinal = new Map();
  }

  /**
   * Formats the runs of `tokens`: those formatted at the last update as they were, the others until `deadline` (and
   * those of `open`, the growing block, whatever the time); the others wait in `pending`. The rest's are kept for the
   * next update.
   */
  #format(
    lexed: Lexed,
    tokens: readonly Token[],
    deadline: number,
    pending: Map<Token, InlineJob[]>,
    open?: Token,
  ): void {
    for (const token of tokens) {
      const runs = lexed.runs.get(token);
      if (!runs) continue;
      const waiting: InlineJob[] = [];
      for (const job of runs) {
        const key = runKey(job);
        const formatted = this.#formatted.get(key);
        if (formatted) {
          job.tokens.length = 0;
          job.tokens.push(...formatted);
        } else if (token === open || performance.now() < deadline) {
          formatRun(job);
        } else {
          waiting.push(job);
          continue;
        }
        if (pending === this.#pendingRest) this.#formatting.set(key, job.tokens);
      }
      if (waiting.length > 0) pending.set(token, waiting);
    }
  }

  #blockOf(token: Token, lexed: Lexed, open: boolean): Block {
    const limited = lexed.limited.has(token);
    const pending = this.#pendingFinal.has(token) || this.#pendingRest.has(token);
    return {
      token,
      open,
      ...(limited ? { limited: true } : {}),
      ...(pending ? { pending: true } : {}),
    };
  }

  /**
   * The final blocks and the rest, remembered for the next update. While streaming the rest is lexed again from its
   * repaired text, and its last block (with the space after it) is open.
   */
  #remember(text: string, streaming: boolean, lexed: Lexed, rest: Token[], restText: string, deadline: number): Blocks {
    let shown = lexed;
    let tokens = rest;
    if (streaming && restText.trim() !== "") {
      // remend is quadratic in brackets too (10,000 took 127 ms): a rest past the inline limits is not repaired (its
      // runs would show as written anyway).
      const limits = this.#limits;
      const past = pastInlineLimits(restText, limits);
      // The rest as it was lexed when it is all of that text and not repaired (a long paragraph streaming as
      // written): lexed once per update, not twice.
      if (!past || rest.length !== lexed.tokens.length) {
        shown = lexBlocks(past ? restText : repair(restText), limits);
        tokens = shown.tokens;
      }
    }
    this.#pendingRest = new Map();
    this.#formatting = new Map();
    let open: Token | undefined;
    for (let i = tokens.length - 1; streaming && i >= 0 && !open; i--) if (shown.runs.has(tokens[i]!)) open = tokens[i];
    this.#format(shown, tokens, deadline, this.#pendingRest, open);
    this.#formatted = this.#formatting;
    let last = tokens.length - 1;
    while (last > 0 && tokens[last]?.type === "space") last--;
    const blocks = {
      final: this.#final,
      rest: tokens.map((token, index) => this.#blockOf(token, shown, streaming && index >= last)),
    };
    this.#last = { text, streaming, blocks };
    return blocks;
  }
}
