import { LitElement, type PropertyDeclarations } from "lit";
import type { StringTable } from "../i18n/strings.js";

/**
 * What the pi-* elements that draw something share, declared once: `theme`, which the shared design tokens honour
 * (a forced colour scheme), and `strings`, per-element text overrides. A subclass's own `static properties` lists
 * only what it adds; Lit gives it these too.
 */
export class PiElement extends LitElement {
  static override properties: PropertyDeclarations = {
    theme: { type: String, reflect: true },
    strings: { attribute: false },
  };

  /**
   * `"light"` or `"dark"` forces a theme; by default it follows `prefers-color-scheme` (or an ancestor's
   * `--pi-color-scheme`).
   * @default undefined
   */
  declare theme: "light" | "dark" | undefined;
  /**
   * Per-element string overrides (see `setStrings` for page-wide ones).
   * @default undefined
   */
  declare strings: StringTable | undefined;
}
