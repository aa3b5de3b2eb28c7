/**
 * The 16 themed ANSI colours and the text-attribute classes that `renderAnsi` output uses. Include it after
 * `tokens` in any element that renders ANSI text. Each colour reads a public `--pi-ansi-<name>` override; the
 * defaults follow pi's palette (Tomorrow Night in the dark, Tomorrow in the light) nudged so each one reaches WCAG AA
 * (4.5:1) on the element background: "black" is a mid grey in the dark theme and "white" a dark grey in the light.
 */
import { css } from "lit";

export const ansiStyles = css`
  :host {
    --_ansi-0: var(--pi-ansi-black, light-dark(#1f2328, #949494));
    --_ansi-1: var(--pi-ansi-red, light-dark(#a34f4f, #d47474));
    --_ansi-2: var(--pi-ansi-green, light-dark(#4d744d, #b5bd68));
    --_ansi-3: var(--pi-ansi-yellow, light-dark(#85631f, #f0c674));
    --_ansi-4: var(--pi-ansi-blue, light-dark(#3b5ea8, #81a2be));
    --_ansi-5: var(--pi-ansi-magenta, light-dark(#7d4b8c, #b294bb));
    --_ansi-6: var(--pi-ansi-cyan, light-dark(#2f6b6b, #8abeb7));
    --_ansi-7: var(--pi-ansi-white, light-dark(#616161, #c5c8c6));
    --_ansi-8: var(--pi-ansi-bright-black, light-dark(#595959, #a8a8a8));
    --_ansi-9: var(--pi-ansi-bright-red, light-dark(#b02020, #ff8080));
    --_ansi-10: var(--pi-ansi-bright-green, light-dark(#3f6a00, #d0d77f));
    --_ansi-11: var(--pi-ansi-bright-yellow, light-dark(#755800, #ff0));
    --_ansi-12: var(--pi-ansi-bright-blue, light-dark(#2450c0, #8fa8ff));
    --_ansi-13: var(--pi-ansi-bright-magenta, light-dark(#8040a0, #d183e8));
    --_ansi-14: var(--pi-ansi-bright-cyan, light-dark(#1a6a70, #00d7ff));
    --_ansi-15: var(--pi-ansi-bright-white, light-dark(#6b6b6b, #fff));
  }
  /*
   * OKLCH lightness 0.5 and 0.72 keep text at 4.5:1 or more on the light and dark backgrounds and surfaces. Text on
   * a stronger ground (a select's current option) sets the two bounds further apart.
   */
  .ansi-fg {
    color: light-dark(
      oklch(from var(--_fg) min(l, var(--_ansi-light-max-l, 0.5)) min(c, 0.2) h),
      oklch(from var(--_fg) max(l, var(--_ansi-dark-min-l, 0.72)) c h)
    );
  }
  .ansi-bold {
    font-weight: bold;
  }
  .ansi-dim {
    opacity: 0.75;
  }
  .ansi-italic {
    font-style: italic;
  }
  .ansi-underline {
    text-decoration-line: underline;
  }
  .ansi-strike {
    text-decoration-line: line-through;
  }
  .ansi-underline.ansi-strike {
    text-decoration-line: underline line-through;
  }
  .ansi-link {
    color: var(--_accent);
    text-decoration-line: underline;
  }
`;
