/**
 * marked's tokens as Lit templates. Text is always a text binding and never parsed as HTML: raw HTML in the Markdown
 * (marked's `html` tokens, block and inline) shows as the text it is. Links and images go through safe-url.ts.
 */
import { html, nothing, type TemplateResult } from "lit";
import type { Token, Tokens } from "marked";
import type { CodeBlockLimits } from "../code-block/code-block.js";
import { textPieces } from "./long-text.js";
import { decodeReferences, imageSrc, linkHref } from "./safe-url.js";
import type { MarkdownStringKey } from "./strings.js";

/** Nesting deeper than this (quotes in lists in quotes …) shows as the text of the block, unformatted. */
export const MAX_DEPTH = 16;

export interface RenderContext {
  readonly t: (key: MarkdownStringKey, values?: Record<string, string>) => string;
  /** Load images from http(s) URLs (`images="allow"`); otherwise they show as links. */
  readonly loadImages: boolean;
  /** The block is still streaming (a code block in it is marked so). */
  readonly open: boolean;
  /** The code blocks' limits, when the message's `limits` set any (the same object from render to render). */
  readonly codeLimits?: Partial<CodeBlockLimits> | undefined;
  /** The element a `#` heading becomes, `##` one level below it, and so on, capped at 6 (below 1 for a text whose
   * shallowest heading is deeper than `#`: pi-markdown shifts it so that one becomes its `heading-level`). */
  readonly headingLevel?: number | undefined;
}

type Inline = TemplateResult | string | typeof nothing | readonly Inline[];

/**
 * A text as written (a run past the limits, raw HTML, nesting too deep): a long one in pieces that do not change once
 * complete, each a block of its own (long-text.ts), so that a growing one lays out only its last piece.
 */
function asWritten(text: string): Inline {
  const pieces = textPieces(text);
  return typeof pieces === "string" ? pieces : pieces.map((piece) => html`<span class="piece">${piece}</span>`);
}

/**
 * A run of inline tokens. One token (most paragraphs, list items and cells) is returned alone: Lit marks each item of
 * an array with two comment nodes, which over a long session is a good part of the DOM.
 */
function inlines(tokens: readonly Token[] | undefined, context: RenderContext): Inline {
  if (tokens?.length === 1) return inline(tokens[0]!, context);
  return (tokens ?? []).map((token) => inline(token, context));
}

function inline(token: Token, context: RenderContext): Inline {
  switch (token.type) {
    case "text": {
      const run = token as Tokens.Text;
      return run.tokens ? inlines(run.tokens, context) : decodeReferences(run.text);
    }
    case "escape":
      return (token as Tokens.Escape).text;
    case "strong":
      return html`<strong>${inlines((token as Tokens.Strong).tokens, context)}</strong>`;
    case "em":
      return html`<em>${inlines((token as Tokens.Em).tokens, context)}</em>`;
    case "del":
      return html`<del>${inlines((token as Tokens.Del).tokens, context)}</del>`;
    case "codespan":
      return html`<code part="code-span">${(token as Tokens.Codespan).text}</code>`;
    case "br":
      return html`<br />`;
    case "link":
      return link(token as Tokens.Link, context);
    case "image":
      return image(token as Tokens.Image, context);
    case "checkbox":
      return checkbox((token as Tokens.Checkbox).checked, context);
    default:
      // Raw HTML (`html`) and anything unknown (a run past the limits, block-lexer.ts): the text as written.
      return asWritten(token.raw);
  }
}

function link(token: Tokens.Link, context: RenderContext): Inline {
  const content = inlines(token.tokens, context);
  const href = linkHref(token.href, token.autolink === true);
  if (href === undefined) return content;
  // A new tab: following a link must not navigate away from a running session. No referrer, no opener.
  return html`<a
    part="link"
    href=${href}
    title=${token.title ? decodeReferences(token.title) : nothing}
    target="_blank"
    rel="noopener noreferrer"
    >${content}</a
  >`;
}

/** Where remend puts an image whose URL has not streamed in yet. */
const incompleteImage = "streamdown:incomplete-image";

function image(token: Tokens.Image, context: RenderContext): Inline {
  const alt = decodeReferences(token.text);
  const src = imageSrc(token.href);
  if (src !== undefined && context.loadImages) {
    return html`<img part="image" src=${src} alt=${alt} loading="lazy" referrerpolicy="no-referrer" />`;
  }
  const label = alt ? context.t("markdownImage", { alt }) : context.t("markdownImageUntitled");
  const href = token.href === incompleteImage ? undefined : linkHref(token.href);
  if (href === undefined) return label;
  return html`<a part="link image-link" href=${href} target="_blank" rel="noopener noreferrer">${label}</a>`;
}

function checkbox(checked: boolean, context: RenderContext): TemplateResult {
  return html`<input part="task" type="checkbox" disabled .checked=${checked} aria-label=${context.t("markdownTask")} />`;
}

/**
 * `dir="auto"` for a top-level block; a block inside a quote or a list item takes the direction of its container,
 * which has `dir="auto"` itself (the direction of an element with `dir="auto"` skips descendants with a `dir` of
 * their own, so a quote of right-to-left paragraphs that each had one would lay out its bar left to right).
 */
const dirAt = (depth: number) => (depth === 0 ? "auto" : nothing);

/** The blocks of a container (a quote, a list item) at `depth`; one alone (a tight item's text) not in an array. */
function blocks(tokens: readonly Token[], context: RenderContext, depth: number): unknown {
  if (tokens.length === 1) return block(tokens[0]!, context, depth);
  return tokens.map((token) => block(token, context, depth));
}

/** One block-level token as a template; `depth` is how deep it is nested in quotes and lists. */
export function block(token: Token, context: RenderContext, depth = 0): unknown {
  if (depth > MAX_DEPTH) return html`<p dir="auto" part="raw">${asWritten(token.raw)}</p>`;
  switch (token.type) {
    case "space":
    case "def":
      return nothing;
    case "paragraph":
      return html`<p dir=${dirAt(depth)}>${inlines((token as Tokens.Paragraph).tokens, context)}</p>`;
    case "text": {
      // The text of a tight list item.
      const run = token as Tokens.Text;
      return run.tokens ? inlines(run.tokens, context) : decodeReferences(run.text);
    }
    case "heading":
      return heading(token as Tokens.Heading, context, depth);
    case "code": {
      const code = token as Tokens.Code;
      const language = (code.lang ?? "").trim().split(/\s+/)[0] ?? "";
      return html`<pi-code-block
        part="code-block"
        .code=${code.text}
        language=${language}
        .limits=${context.codeLimits}
        ?streaming=${context.open}
      ></pi-code-block>`;
    }
    case "blockquote":
      return html`<blockquote dir="auto">${blocks((token as Tokens.Blockquote).tokens, context, depth + 1)}</blockquote>`;
    case "list":
      return list(token as Tokens.List, context, depth);
    case "table":
      return table(token as Tokens.Table, context);
    case "hr":
      return html`<hr />`;
    case "checkbox":
      return checkbox((token as Tokens.Checkbox).checked, context);
    default:
      // Raw HTML blocks and anything unknown: the text as written.
      return html`<p dir=${dirAt(depth)} part="raw">${asWritten(token.raw.replace(/\n+$/, ""))}</p>`;
  }
}

function heading(token: Tokens.Heading, context: RenderContext, depth: number): TemplateResult {
  const content = inlines(token.tokens, context);
  const dir = dirAt(depth);
  switch (Math.min(6, (context.headingLevel ?? 1) - 1 + token.depth)) {
    case 1:
      return html`<h1 dir=${dir}>${content}</h1>`;
    case 2:
      return html`<h2 dir=${dir}>${content}</h2>`;
    case 3:
      return html`<h3 dir=${dir}>${content}</h3>`;
    case 4:
      return html`<h4 dir=${dir}>${content}</h4>`;
    case 5:
      return html`<h5 dir=${dir}>${content}</h5>`;
    default:
      return html`<h6 dir=${dir}>${content}</h6>`;
  }
}

function list(token: Tokens.List, context: RenderContext, depth: number): TemplateResult {
  const items = token.items.map(
    (item) =>
      html`<li dir="auto" class=${item.task ? "task" : nothing}>${blocks(item.tokens, context, depth + 1)}</li>`,
  );
  if (!token.ordered) return html`<ul>${items}</ul>`;
  const start = typeof token.start === "number" && token.start !== 1 ? token.start : nothing;
  return html`<ol start=${start}>${items}</ol>`;
}

const alignClass = (align: Tokens.TableCell["align"]) => (align ? `align-${align}` : nothing);

/** The strong direction of the first letter in `text` (what `dir="auto"` would find), or undefined without one. */
function firstStrong(text: string): "ltr" | "rtl" | undefined {
  const letter = /[\p{L}]/u.exec(text)?.[0];
  if (letter === undefined) return undefined;
  return /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Adlam}]/u.test(
    letter,
  )
    ? "rtl"
    : "ltr";
}

function table(token: Tokens.Table, context: RenderContext): TemplateResult {
  // The scroll container is focusable so that a wide table scrolls from the keyboard. Its direction is its text's:
  // an English table keeps its columns left to right in a right-to-left page, an Arabic one right to left. Set here,
  // since dir="auto" on it would skip its cells (each has a dir of its own).
  const text = [...token.header, ...token.rows.flat()].map((cell) => cell.text).join(" ");
  return html`<div part="table-region" role="group" tabindex="0" dir=${firstStrong(text) ?? nothing} aria-label=${context.t("markdownTable")}>
    <table part="table">
      <thead>
        <tr>
          ${token.header.map(
            (cell) => html`<th dir="auto" class=${alignClass(cell.align)}>${inlines(cell.tokens, context)}</th>`,
          )}
        </tr>
      </thead>
      <tbody>
        ${token.rows.map(
          (row) =>
            html`<tr>
              ${row.map(
                (cell) => html`<td dir="auto" class=${alignClass(cell.align)}>${inlines(cell.tokens, context)}</td>`,
              )}
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
