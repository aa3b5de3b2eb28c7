/**
 * Renders ANSI-styled text as a Lit template. Text goes into text bindings only, so markup in it stays text. The
 * only elements produced are `<span>` for styled runs and `<a part="link">` for http(s) OSC 8 links.
 *
 * Colours are set through the `style` *property* (`.style=${…}` assigns `element.style`, which forwards to
 * `style.cssText`): that is CSSOM, allowed under a strict `style-src` policy, where a `style` attribute is blocked.
 * The declarations are built here from the parser's colour values (theme variables, `rgb()` numbers), never from the
 * input text. Lit's styleMap directive would do the same.
 */
import { html, type TemplateResult } from "lit";
import { type AnsiRun, type AnsiStyle, parseAnsi } from "./parse-ansi.js";

export function renderAnsi(text: string): TemplateResult {
  return html`${parseAnsi(text).map(renderRun)}`;
}

function renderRun(run: AnsiRun): TemplateResult | string {
  if (run.href !== undefined) {
    return html`<a
      part="link"
      class=${`${classes(run.style)} ansi-link`}
      .style=${colors(run.style, true)}
      href=${run.href}
      target="_blank"
      rel="noopener noreferrer"
      >${run.text}</a
    >`;
  }
  const style = run.style;
  if (Object.keys(style).length === 0) return run.text;
  return html`<span class=${classes(style)} .style=${colors(style, false)}>${run.text}</span>`;
}

/** The class list as an attribute value: a span is only ever styled by this renderer, so no classMap is needed. */
function classes(style: AnsiStyle): string {
  return [
    needsContrast(style) && "ansi-fg",
    style.bold && "ansi-bold",
    style.dim && "ansi-dim",
    style.italic && "ansi-italic",
    style.underline && "ansi-underline",
    style.strikethrough && "ansi-strike",
  ]
    .filter(Boolean)
    .join(" ");
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
