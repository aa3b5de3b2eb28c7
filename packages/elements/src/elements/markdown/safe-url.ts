/**
 * Which URLs in model output become links or images. The policy, in one place:
 *
 * - A link needs an absolute `http:`, `https:` or `mailto:` URL. `tel:` and `ftp:` (which pi's HTML export also
 *   allows) are not links here: browsers no longer open `ftp:`, and a `tel:` link hands a number the model wrote to
 *   the phone app; both show as text. Relative URLs have no meaning in model output (they would resolve against the
 *   page) and show as text too.
 * - Before the check, HTML character references are decoded as CommonMark reads a link destination (`&#x09;`,
 *   `&#106;`, `&colon;`, `&amp;`, …; other named references stay as written) and every control character is
 *   stripped, so `jav&#x09;ascript:` and `java\u0000script:` are seen as the `javascript:` they would become.
 * - The URL given to the page is the parsed URL's own serialisation, never the text as written.
 */

const linkSchemes = new Set(["http:", "https:", "mailto:"]);
const imageSchemes = new Set(["http:", "https:"]);

/** The named references that can matter in a URL; CommonMark knows ~2,000, the rest stay literal (and harmless). */
const named: Record<string, string> = {
  amp: "&",
  colon: ":",
  tab: "\t",
  newline: "\n",
  sol: "/",
  quest: "?",
  equals: "=",
  num: "#",
  percnt: "%",
  period: ".",
  lpar: "(",
  rpar: ")",
  nbsp: "\u00a0",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
};

/** Decodes numeric character references and the named ones in `named`, as CommonMark does in text and URLs. */
export function decodeReferences(text: string): string {
  return text.replace(/&(?:#[xX]([0-9a-fA-F]{1,6})|#([0-9]{1,7})|([a-zA-Z]+));/g, (match, hex, dec, name) => {
    if (name !== undefined) return named[name.toLowerCase()] ?? match;
    const code = Number.parseInt(hex ?? dec, hex !== undefined ? 16 : 10);
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : "\ufffd";
  });
}

/** C0 and C1 controls, DEL, and the invisible formatting characters a URL parser or a reader would skip over. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point.
const controls = /[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]/g;

function parse(href: string, literal: boolean, schemes: ReadonlySet<string>): string | undefined {
  const cleaned = (literal ? href : decodeReferences(href)).replace(controls, "").trim();
  if (!/^[a-z][a-z0-9+.-]*:/i.test(cleaned)) return undefined;
  let url: URL;
  try {
    url = new URL(cleaned);
  } catch {
    return undefined;
  }
  return schemes.has(url.protocol) ? url.href : undefined;
}

/**
 * The `href` for a link whose destination is `href`, or undefined when it must show as text. `literal`: marked's
 * autolinks (`<https://…>`, bare `www.`), whose destination has no character references to decode.
 */
export function linkHref(href: string, literal = false): string | undefined {
  return parse(href, literal, linkSchemes);
}

/** The `src` an opted-in image may load: `http:` or `https:` only (a `data:` URL shows as text, as other schemes). */
export function imageSrc(href: string): string | undefined {
  return parse(href, false, imageSchemes);
}
