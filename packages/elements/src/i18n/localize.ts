/**
 * Picks an element's strings: a per-element `strings` override first, then page-wide overrides set with
 * `setStrings()`, then the built-in table of the nearest `lang` (the element's own, an ancestor's across shadow
 * roots, or the document's), then English.
 */
import { en, ja, type StringKey, type StringTable, zhHans } from "./strings.js";

/** One language's strings of some set: a key missing falls back to the set's English. */
type AnyTable = { readonly [key: string]: string | undefined };

/**
 * A set of built-in tables by primary language subtag; `zh` is Simplified Chinese (zh-CN, zh-SG, zh-Hans). The
 * extension UI's set is `en`/`ja`/`zhHans` of strings.ts; an optional part (the transcript) brings its own set in its
 * own module, so a page that does not load the part does not carry its strings.
 */
export interface StringSet<K extends string> {
  readonly en: { readonly [key in K]: string };
  readonly ja: { readonly [key in K]?: string };
  readonly zh: { readonly [key in K]?: string };
}

const builtIn: StringSet<StringKey> = { en, ja, zh: zhHans };
const globalOverrides: Record<string, AnyTable> = {};

/**
 * Overrides strings for every element on the page, for one language (`"*"` for all languages). The keys of every
 * part's set may be given (the extension UI's are typed here; an optional part exports its own table type). A key
 * means the same words in every element that uses it (`cancel` in each dialog); to change one element's alone,
 * qualify the key with its tag: `"pi-session-actions:failed"` leaves pi-model-picker's and pi-thinking-level's
 * `failed` as they are. A qualified key wins over a plain one; an element's own `strings` over both.
 */
export function setStrings(lang: string, table: StringTable | AnyTable): void {
  const key = lang.toLowerCase();
  globalOverrides[key] = { ...globalOverrides[key], ...table };
}

/** The nearest `lang` attribute, crossing shadow-root boundaries. */
export function nearestLang(element: Element): string {
  let node: Node | null = element;
  while (node) {
    const lang = node instanceof Element ? node.getAttribute("lang") : null;
    if (lang !== null) return lang;
    node = node.parentNode ?? (node instanceof ShadowRoot ? node.host : null);
  }
  return document.documentElement.lang || navigator.language || "en";
}

/** The tables `key` is looked up in, first match wins: page-wide overrides (tag, primary language, "*"), built-in. */
function tablesFor(lang: string, set: StringSet<string>): (AnyTable | undefined)[] {
  const tag = lang.toLowerCase();
  const base = tag.split("-")[0] ?? tag;
  // Traditional Chinese has no built-in table: it falls back to English rather than to Simplified.
  const table =
    base === "zh" && /-(tw|hk|mo|hant)\b/.test(tag)
      ? undefined
      : Object.hasOwn(set, base)
        ? (set as unknown as Record<string, AnyTable>)[base]
        : undefined;
  return [globalOverrides[tag], globalOverrides[base], globalOverrides["*"], table];
}

/** Resolves `key` for `element`, filling `{name}` placeholders from `values`. English is the last resort. */
export function localize(
  element: Element,
  key: StringKey,
  values?: Record<string, string | number>,
  override?: StringTable,
): string {
  return localizeIn(builtIn, element, key, values, override);
}

/**
 * `localize` over another set of built-in tables (an optional part's): the same order of lookup, the same page-wide
 * overrides, the set's English last.
 */
export function localizeIn<K extends string>(
  set: StringSet<K>,
  element: Element,
  key: K,
  values?: Record<string, string | number>,
  override?: { readonly [key in K]?: string },
): string {
  const tables = tablesFor(nearestLang(element), set);
  const own = `${element.localName}:${key}`;
  const result =
    override?.[key] ??
    tables.map((table) => table?.[own]).find((text) => text !== undefined) ??
    tables.map((table) => table?.[key]).find((text) => text !== undefined) ??
    set.en[key];
  if (!values) return result;
  return result.replace(/\{(\w+)\}/g, (match, name: string) => String(values[name] ?? match));
}

/** `localize` with the element's own per-element `strings` override, as every pi-* element uses it. */
export function localizeOwn(
  element: Element & { strings: StringTable | undefined },
  key: StringKey,
  values?: Record<string, string | number>,
): string {
  return localize(element, key, values, element.strings);
}

/** Whether the element's nearest direction is right-to-left (for key mapping; layout uses logical CSS). */
export function isRtl(element: Element): boolean {
  return getComputedStyle(element).direction === "rtl";
}
