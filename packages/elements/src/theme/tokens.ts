/**
 * Design tokens shared by every element. A page themes pi-elements with public `--pi-*` custom properties; each
 * element reads them through a private `--_*` twin whose fallback is pi's own theme colour, in both schemes:
 * `light-dark()` picks by the element's used `color-scheme`, which follows `prefers-color-scheme` unless the
 * `theme="light" | "dark"` attribute forces one, on the element and every element inside it.
 *
 * A page switches every element at once with the inheritable `--pi-color-scheme: light | dark` on any ancestor.
 *
 * Colours are pi's dark.json / light.json values; where one of them fails WCAG AA as text on our background
 * (light warning #9a7326, dark muted #808080, dark error #cc6666 at 4.47:1) the nearest passing shade is used. The dark
 * warning is Tomorrow Night's yellow #f0c674 (pi's ANSI yellow) rather than pi's pure #ffff00, which glares on a page.
 * pi's success and dim roles have no token: nothing here is drawn in them.
 */
import { css } from "lit";

export const tokens = css`
  :host {
    color-scheme: var(--pi-color-scheme, light dark);
    --_text: var(--pi-color-text, light-dark(#1f2328, #e4e4e4));
    --_bg: var(--pi-color-bg, light-dark(#fff, #1e1e24));
    --_surface: var(--pi-color-surface, light-dark(#f4f4f7, #26262e));
    --_border: var(--pi-color-border, light-dark(#b0b0b0, #505050));
    --_accent: var(--pi-color-accent, light-dark(#4f7373, #8abeb7));
    --_error: var(--pi-color-error, light-dark(#a34f4f, #d47474));
    --_warning: var(--pi-color-warning, light-dark(#85631f, #f0c674));
    --_muted: var(--pi-color-muted, light-dark(#616161, #949494));
    --_selected-bg: var(--pi-color-selected-bg, light-dark(#d0d0e0, #3a3a4a));
    --_focus: var(--pi-color-focus, light-dark(#4f7373, #8abeb7));
    --_font: var(--pi-font-family, system-ui, sans-serif);
    --_font-mono: var(--pi-font-family-mono, ui-monospace, "SF Mono", Menlo, Consolas, "Noto Sans Mono CJK JP", monospace);
    --_font-size: var(--pi-font-size, 0.875rem);
    --_radius: var(--pi-radius, 6px);
    --_space: var(--pi-space, 0.5rem);
    --_duration: var(--pi-duration, 150ms);
    color: var(--_text);
    font-family: var(--_font);
    font-size: var(--_font-size);
  }
  /* The theme attribute also reaches the elements inside (a transcript's cards, Markdown and code blocks). */
  :host([theme="light"]) {
    color-scheme: light;
    --pi-color-scheme: light;
  }
  :host([theme="dark"]) {
    color-scheme: dark;
    --pi-color-scheme: dark;
  }
  :host([hidden]) {
    display: none !important;
  }
  /*
   * The focus ring of every control. :where() gives it no specificity, so an element's own rule for a control wins
   * (pi-prompt draws the ring around its whole box instead of around the textarea).
   */
  :where(:focus-visible) {
    outline: 2px solid var(--_focus);
    outline-offset: 1px;
  }
  /* Opaque: Firefox's default placeholder opacity would take the muted colour below AA contrast. */
  ::placeholder {
    color: var(--_muted);
    opacity: 1;
  }
  /* Text for screen readers only (countdown deadlines, live-region announcements), shared by every element. */
  .visually-hidden {
    position: absolute;
    inline-size: 1px;
    block-size: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  @media (prefers-reduced-motion: reduce) {
    :host {
      --_duration: 0ms;
    }
  }
  @media (forced-colors: active) {
    :host {
      --_text: CanvasText;
      --_bg: Canvas;
      --_surface: Canvas;
      --_border: CanvasText;
      --_accent: LinkText;
      --_focus: Highlight;
      --_selected-bg: Highlight;
    }
  }
`;
