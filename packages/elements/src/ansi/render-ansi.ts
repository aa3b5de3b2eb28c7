/**
 * Renders ANSI-styled text as a Lit template. Text goes into text bindings only, so markup in it stays text. The
 * only elements produced are `<span>` for styled runs and `<a part="link">` for http(s) OSC 8 links.
 *
 * Colours are set through the `style` *property* (`.style=${…}` assigns `element.style`, which forwards to
 * `style.cssText`): that is CSSOM, allowed under a strict `style-src` policy, where a `style` attribute is blocked.
 * Lit's styleMap does not fit here: its first render writes the `style` attribute, which such a policy blocks. The
 * declarations are built here from the parser's colour values (theme variables, hex numbers), never from the input
 * text.
 */
import { html, type TemplateResult } from "lit";
import { classMap } from "lit/directives/class-map.js";
import { chunkRuns } from "./chunk-runs.js";
import { type AnsiRun, type AnsiStyle, parseAnsi } from "./parse-ansi.js";

/**
 * The most styled runs (each a `<span>` or a link) one text renders. Past it, the rest of that text is shown as plain
 * text, in order: a status made of 100,000 colour changes would otherwise be 100,000 elements and seconds of work.
 */
export const MAX_STYLED_RUNS = 1000;

export function renderAnsi(text: string): TemplateResult {
  return renderRuns(parseAnsi(text), { styled: 0 });
}

/**
 * `text` as `renderAnsi` draws it, in chunks of `lines` lines (chunk-runs.ts: cut where the line number in the
 * whole output, from `firstLine`, is a multiple of `lines`), each with its number. MAX_STYLED_RUNS counts over all of
 * them.
 */
export function renderAnsiChunks(
  text: string,
  lines: number,
  firstLine = 0,
): { readonly index: number; readonly content: TemplateResult }[] {
  const budget = { styled: 0 };
  return chunkRuns(parseAnsi(text), lines, firstLine).map(({ index, runs }) => ({
    index,
    content: renderRuns(runs, budget),
  }));
}

/** Runs as a template: styled ones while `budget` lasts (MAX_STYLED_RUNS), then the rest as one plain text. */
function renderRuns(runs: readonly AnsiRun[], budget: { styled: number }): TemplateResult {
  const cut = runs.findIndex((run) => isStyled(run) && ++budget.styled > MAX_STYLED_RUNS);
  if (cut === -1) return html`${runs.map(renderRun)}`;
  const rest = runs
    .slice(cut)
    .map((run) => run.text)
    .join("");
  return html`${runs.slice(0, cut).map(renderRun)}${rest}`;
}

function isStyled(run: AnsiRun): boolean {
  return run.href !== undefined || Object.keys(run.style).length > 0;
}

function renderRun(run: AnsiRun): TemplateResult | string {
  if (run.href !== undefined) {
    return html`<a
      part="link"
      class="ansi-link ${classMap(classes(run.style))}"
      .style=${colors(run.style, true)}
      href=${run.href}
      target="_blank"
      rel="noopener noreferrer"
      >${run.text}</a
    >`;
  }
  if (!isStyled(run)) return run.text;
  return html`<span class=${classMap(classes(run.style))} .style=${colors(run.style, false)}>${run.text}</span>`;
}

function classes(style: AnsiStyle) {
  return {
    "ansi-fg": needsContrast(style),
    "ansi-bold": !!style.bold,
    "ansi-dim": !!style.dim,
    "ansi-italic": !!style.italic,
    "ansi-underline": !!style.underline,
    "ansi-strike": !!style.strikethrough,
  };
}

/**
 * A 256-colour or 24-bit foreground on the default background was picked for some terminal's background, often
 * pi's dark one. Like xterm.js's `minimumContrastRatio`, it is kept readable on ours: the stylesheet clamps its
 * lightness for the theme (hue kept). A colour on its own background is left as the extension paired it.
 */
function needsContrast(style: AnsiStyle): boolean {
  return style.fg !== undefined && !style.fg.startsWith("var(") && style.bg === undefined && !style.inverse;
}

/**
 * The colour declarations as `cssText`. Inverse swaps foreground and background; an unset side means the element's
 * own text or background colour.
 */
function colors(style: AnsiStyle, link: boolean): string {
  if (style.inverse) {
    return declarations(style.bg ?? "var(--_bg)", style.fg ?? (link ? "var(--_accent)" : "var(--_text)"));
  }
  if (needsContrast(style)) return `--_fg:${style.fg}`;
  return declarations(style.fg, style.bg);
}

function declarations(color: string | undefined, background: string | undefined): string {
  return (color ? `color:${color};` : "") + (background ? `background-color:${background}` : "");
}
