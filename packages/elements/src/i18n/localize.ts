/**
 * Picks an element's strings: a per-element `strings` override first, then page-wide overrides set with
 * `setStrings()`, then the built-in table of the nearest `lang` (the element's own, an ancestor's across shadow
 * roots, or the document's), then English.
 */
import { en, ja, type StringKey, type StringTable, zhHans } from "./strings.js";

const builtIn: Record<string, StringTable> = {
  en,
  ja,
  zh: zhHans,
  "zh-cn": zhHans,
  "zh-hans": zhHans,
  "zh-sg": zhHans,
};
const globalOverrides: Record<string, StringTable> = {};

/** Overrides strings for every element on the page, for one language (`"*"` for all languages). */
export function setStrings(lang: string, table: StringTable): void {
  const key = lang.toLowerCase();
  globalOverrides[key] = { ...globalOverrides[key], ...table };
}

/** The nearest `lang` attribute, crossing shadow-root boundaries. */
export function nearestLang(element: Element): string {
  let node: Node | null = element;
  while (node) {
    if (node instanceof Element && node.hasAttribute("lang")) return node.getAttribute("lang") ?? "";
    node = node.parentNode ?? (node instanceof ShadowRoot ? node.host : null);
  }
  return document.documentElement.lang || navigator.language || "en";
}

function tablesFor(lang: string): StringTable[] {
  const tag = lang.toLowerCase();
  const base = tag.split("-")[0] ?? tag;
  const tables: StringTable[] = [];
  for (const key of [tag, base, "*"]) {
    const override = globalOverrides[key];
    if (override) tables.push(override);
  }
  // Traditional Chinese has no built-in table: it falls back to English rather than to Simplified.
  const table = builtIn[tag] ?? (base === "zh" && /-(tw|hk|mo|hant)\b/.test(tag) ? undefined : builtIn[base]);
  if (table) tables.push(table);
  tables.push(en);
  return tables;
}

/** Resolves `key` for `element`, filling `{name}` placeholders from `values`. */
export function localize(
  element: Element,
  key: StringKey,
  values?: Record<string, string | number>,
  override?: StringTable,
): string {
  let text: string | undefined = override?.[key];
  if (text === undefined) {
    for (const table of tablesFor(nearestLang(element))) {
      text = table[key];
      if (text !== undefined) break;
    }
  }
  let result = text ?? en[key];
  if (values) result = result.replace(/\{(\w+)\}/g, (match, name: string) => String(values[name] ?? match));
  return result;
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
