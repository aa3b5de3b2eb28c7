/**
 * One parser for the terminal styling that pi extensions put in status texts and widget lines: SGR (colours and
 * text attributes) and OSC 8 hyperlinks. Every other escape sequence is dropped, so no raw escape ever reaches the
 * page. The output is plain data (runs of text with a style); rendering it is `renderAnsi`'s job, which only makes
 * text nodes, never HTML.
 */
import { shallowEqual } from "../internal/shallow-equal.js";

/** A CSS colour value: `var(--_ansi-N)` for the 16 themed colours, a hex value for the other 240 and for 24-bit. */
export type AnsiColor = string;

export interface AnsiStyle {
  readonly fg?: AnsiColor;
  readonly bg?: AnsiColor;
  readonly bold?: boolean;
  readonly dim?: boolean;
  readonly italic?: boolean;
  readonly underline?: boolean;
  readonly strikethrough?: boolean;
  readonly inverse?: boolean;
}

export interface AnsiRun {
  readonly text: string;
  readonly style: AnsiStyle;
  /** Set only for OSC 8 links whose target is an absolute http: or https: URL. */
  readonly href?: string;
}

/**
 * One escape sequence, from its ESC to its end (ECMA-48), the alternatives tried in this order:
 * - CSI `ESC [`: parameter bytes 0x30-0x3F (group 1), intermediates 0x20-0x2F (group 2), one final byte 0x40-0x7E
 *   (group 3). A malformed one ends where a byte outside those ranges begins. It is SGR when the final byte is `m`
 *   right after the parameters (forms with intermediates are other commands).
 * - OSC `ESC ]`: a string (group 4) running to ST (`ESC \`) or BEL; unterminated, to the end of the input.
 * - DCS, SOS, PM, APC (`ESC P`, `X`, `^`, `_`): a string running to ST or the end (BEL does not end these).
 * - Any other: intermediates 0x20-0x2F, then one final byte 0x30-0x7E (e.g. `ESC ( B`, `ESC 7`). A stray ESC at the
 *   very end has neither, so only the ESC goes.
 */
const ESCAPE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ESC and BEL are what delimit escape sequences.
  /\u001b(?:\[([0-?]*)([ -/]*)([@-~]?)|\](.*?)(?:\u0007|\u001b\\|$)|[PX^_].*?(?:\u001b\\|$)|[ -/]*[0-~]?)/gs;

type MutableStyle = { -readonly [K in keyof AnsiStyle]: AnsiStyle[K] };

/** Splits `input` into styled runs. Adjacent text with the same style and link is one run; empty runs are omitted. */
export function parseAnsi(input: string): AnsiRun[] {
  const runs: AnsiRun[] = [];
  let style: MutableStyle = {};
  let href: string | undefined;
  let text = "";
  let textFrom = 0;

  const flush = () => {
    if (text === "") return;
    const last = runs[runs.length - 1];
    if (last && last.href === href && shallowEqual<AnsiStyle>(last.style, style)) {
      runs[runs.length - 1] = { ...last, text: last.text + text };
    } else {
      runs.push(href === undefined ? { text, style: { ...style } } : { text, style: { ...style }, href });
    }
    text = "";
  };

  for (const match of input.matchAll(ESCAPE)) {
    text += input.slice(textFrom, match.index);
    textFrom = match.index + match[0].length;
    const [, params, intermediates, final, osc] = match;
    if (final === "m" && intermediates === "") {
      flush();
      style = applySgr(style, params ?? "");
    } else if (osc !== undefined) {
      const link = parseOsc8(osc);
      if (link !== null) {
        flush();
        href = link;
      }
    }
  }
  text += input.slice(textFrom);
  flush();
  return runs;
}

/** Removes every escape sequence and returns the visible text. */
export function stripAnsi(input: string): string {
  return parseAnsi(input)
    .map((run) => run.text)
    .join("");
}

/**
 * `8;params;URI`: returns the link target for http(s), `undefined` to end a link (empty URI or any other scheme,
 * whose text stays as plain text), or null when this is not OSC 8.
 */
function parseOsc8(body: string): string | undefined | null {
  if (!body.startsWith("8;")) return null;
  const uriStart = body.indexOf(";", 2);
  if (uriStart === -1) return undefined;
  return safeHref(body.slice(uriStart + 1));
}

/** A URL that starts with `http://` or `https://` parses with that scheme or not at all. */
function safeHref(uri: string): string | undefined {
  if (!/^https?:\/\//i.test(uri)) return undefined;
  try {
    return new URL(uri).href;
  } catch {
    return undefined;
  }
}

/** What each plain SGR code sets or clears (21 is double underline; 22 ends both bold and dim); colours below. */
const ATTRIBUTES: Record<number, MutableStyle> = {
  1: { bold: true },
  2: { dim: true },
  3: { italic: true },
  4: { underline: true },
  7: { inverse: true },
  9: { strikethrough: true },
  21: { underline: true },
  22: { bold: false, dim: false },
  23: { italic: false },
  24: { underline: false },
  27: { inverse: false },
  29: { strikethrough: false },
  39: { fg: undefined },
  49: { bg: undefined },
};
// The 8 colours: 30-37 set the foreground, 40-47 the background; 90-97 and 100-107 set their bright twins (8-15).
for (let i = 0; i < 8; i++) {
  ATTRIBUTES[30 + i] = { fg: paletteColor(i) };
  ATTRIBUTES[40 + i] = { bg: paletteColor(i) };
  ATTRIBUTES[90 + i] = { fg: paletteColor(i + 8) };
  ATTRIBUTES[100 + i] = { bg: paletteColor(i + 8) };
}

/** Applies one SGR parameter list (`1;38;5;226`, `38:2::1:2:3`, or empty = reset) to a style. */
function applySgr(current: MutableStyle, params: string): MutableStyle {
  let style: MutableStyle = { ...current };
  // An empty list is one empty parameter, which reads as 0 (below): a reset.
  const list = params.split(";");
  for (let k = 0; k < list.length; k++) {
    const parts = (list[k] ?? "").split(":");
    // An empty number is 0, as terminals read it (and as `Number("")` is).
    const code = Number(parts[0]);
    if (!Number.isInteger(code)) continue;
    if (code === 38 || code === 48 || code === 58) {
      // Extended colour, in colon form (one parameter) or semicolon form (it consumes the following ones).
      let args = parts.slice(1);
      if (args.length === 0) {
        const mode = list[k + 1];
        const take = mode === "5" ? 2 : mode === "2" ? 4 : 0;
        args = list.slice(k + 1, k + 1 + take);
        k += args.length;
      } else if (args[0] === "2" && args.length >= 5) {
        // ITU form `38:2:colorspace:r:g:b` has an extra (often empty) colour-space id.
        args.splice(1, 1);
      }
      const color = extendedColor(args);
      if (color !== undefined && code === 38) style.fg = color;
      if (color !== undefined && code === 48) style.bg = color;
      continue; // 58 (underline colour) is consumed and ignored.
    }
    // `4:0` is underline style "none"; `4:1`…`4:5` (single, double, curly…) all draw an underline here.
    if (code === 0) style = {};
    else if (code === 4 && parts[1] === "0") style.underline = false;
    else if (code in ATTRIBUTES) Object.assign(style, ATTRIBUTES[code]);
    // Blink, conceal, fonts, overline and the rest have no useful rendering here: ignored.
  }
  return clean(style);
}

/** Drops false/undefined keys so styles compare (shallowEqual) and serialize simply; `style` is applySgr's own copy. */
function clean(style: MutableStyle): MutableStyle {
  for (const key of Object.keys(style) as (keyof MutableStyle)[]) {
    if (style[key] === undefined || style[key] === false) delete style[key];
  }
  return style;
}

function extendedColor(args: readonly string[]): AnsiColor | undefined {
  const numbers = args.map(Number);
  if (!numbers.every((n) => Number.isInteger(n) && n >= 0 && n <= 255)) return undefined;
  if (numbers[0] === 5 && numbers.length === 2) return paletteColor(numbers[1] ?? 0);
  if (numbers[0] === 2 && numbers.length === 4) return hex(numbers[1] ?? 0, numbers[2] ?? 0, numbers[3] ?? 0);
  return undefined;
}

/** One step of xterm's 6x6x6 colour cube as a channel value: 0, 95, 135, 175, 215, 255. */
const cubeLevel = (step: number) => (step === 0 ? 0 : 55 + 40 * step);

/** xterm's 256-colour palette; the first 16 come from the theme. */
export function paletteColor(index: number): AnsiColor {
  if (index < 16) return `var(--_ansi-${index})`;
  if (index < 232) {
    const n = index - 16;
    return hex(cubeLevel(Math.floor(n / 36)), cubeLevel(Math.floor(n / 6) % 6), cubeLevel(n % 6));
  }
  const gray = 8 + (index - 232) * 10;
  return hex(gray, gray, gray);
}

function hex(r: number, g: number, b: number): string {
  return `#${[r, g, b].map((n) => n.toString(16).padStart(2, "0")).join("")}`;
}
