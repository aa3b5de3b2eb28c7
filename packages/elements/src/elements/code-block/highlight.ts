/**
 * The highlighter, run in the highlighter's worker (highlight-worker.ts, started by highlighter.ts for the first code
 * block that names a language), so a page without code does not load it. lowlight runs highlight.js's grammars (its `common` set of 37 languages) and
 * returns a syntax tree, which pi-code-block renders as Lit templates: no HTML string is ever parsed, and the colours
 * come from classes in the element's stylesheet, so it works under a CSP without `unsafe-eval` or inline styles.
 */
import { common, createLowlight } from "lowlight";

const lowlight = createLowlight(common);

/** hast's root, as lowlight returns it (hast's types come with lowlight). */
export type Root = ReturnType<typeof lowlight.highlight>;

/** The highlighted tree of `code` in `language` (a name or an alias: `ts`, `sh`, …), or undefined if unknown. */
export function highlight(code: string, language: string): Root | undefined {
  return lowlight.registered(language) ? lowlight.highlight(language, code) : undefined;
}
