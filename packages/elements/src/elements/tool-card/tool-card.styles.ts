import { css } from "lit";
import { ansiStyles } from "../../ansi/ansi.styles.js";
import { tokens } from "../../theme/tokens.js";

export const styles = [
  tokens,
  ansiStyles,
  css`
    :host {
      display: block;
      /* pi's success green (its ANSI green), AA on the background and the surface in both schemes. */
      --_success: var(--pi-color-success, light-dark(#4d744d, #b5bd68));
      min-inline-size: 0;
    }
    [part~="base"] {
      border: 1px solid var(--_border);
      border-inline-start-width: 3px;
      border-radius: var(--_radius);
      background: var(--_bg);
      overflow: hidden;
    }
    [part~="base"][data-status="running"],
    [part~="base"][data-status="streaming"],
    [part~="base"][data-status="pending"] {
      border-inline-start-color: var(--_accent);
    }
    [part~="base"][data-status="done"] {
      border-inline-start-color: var(--_success);
    }
    [part~="base"][data-status="error"] {
      border-inline-start-color: var(--_error);
    }
    [part~="header"] {
      display: flex;
      flex-wrap: wrap;
      align-items: baseline;
      gap: 0 var(--_space);
      padding: calc(var(--_space) / 2) var(--_space);
      background: var(--_surface);
      line-height: 1.5;
    }
    [part~="status"] {
      flex: none;
      /* At least 1ch; a wider glyph (● in a proportional fallback font) must not touch the name. */
      min-inline-size: 1ch;
      text-align: center;
      font-family: var(--_font-mono);
    }
    [part~="status"]::before {
      content: "○" / "";
      color: var(--_muted);
    }
    [part~="status"][data-status="running"]::before {
      content: "●" / "";
      color: var(--_accent);
    }
    [part~="status"][data-status="done"]::before {
      content: "✓" / "";
      color: var(--_success);
    }
    [part~="status"][data-status="error"]::before {
      content: "✗" / "";
      color: var(--_error);
    }
    [part~="name"] {
      font-weight: 600;
    }
    [part~="subject"] {
      /* A narrow card (a phone) gives a long subject a line of its own rather than a column a word wide. */
      flex: 1 1 24ch;
      min-inline-size: 0;
      font-family: var(--_font-mono);
      white-space: pre-wrap;
      overflow-wrap: anywhere;
      unicode-bidi: isolate;
    }
    [part~="time"] {
      margin-inline-start: auto;
      color: var(--_muted);
      font-variant-numeric: tabular-nums;
      white-space: nowrap;
    }
    [part~="body"][hidden],
    [part~="nested"][hidden] {
      display: none;
    }
    [part~="nested"] {
      display: flex;
      flex-direction: column;
      gap: calc(var(--_space) / 2);
      padding: 0 var(--_space) calc(var(--_space) / 2);
    }
    [part~="body"] {
      display: flex;
      flex-direction: column;
      gap: calc(var(--_space) / 2);
      padding: calc(var(--_space) / 2) var(--_space);
    }
    pre,
    [part~="diff"] {
      margin: 0;
      font-family: var(--_font-mono);
      font-size: 0.95em;
      line-height: 1.45;
      white-space: pre-wrap;
      overflow-wrap: anywhere;
      tab-size: 4;
      /* Output and code read left to right, also inside a right-to-left page. */
      text-align: left;
    }
    pre:empty {
      display: none;
    }
    /* A long output's chunks of 100 lines (output.ts): laid out and painted only near the view; off screen, as tall
     * as when last laid out, or 100 lines before that. */
    pre > .chunk {
      display: block;
      content-visibility: auto;
      contain-intrinsic-block-size: auto 145em;
    }
    [part~="image"] {
      align-self: flex-start;
      max-inline-size: 100%;
      max-block-size: 24rem;
      object-fit: contain;
    }
    [part~="error"] {
      color: var(--_error);
      text-align: start;
    }
    [part~="toggle-button"] {
      align-self: flex-start;
      margin: 0;
      padding: 0;
      border: 0;
      background: none;
      color: var(--_muted);
      font: inherit;
      font-family: var(--_font-mono);
      font-size: 0.95em;
      text-align: start;
      cursor: pointer;
      /* Shapes the focus ring only: the toggle has no border or background. */
      border-radius: 2px;
    }
    [part~="toggle-button"]:hover {
      color: var(--_text);
      text-decoration: underline;
    }
    [part~="note"],
    [part~="section-label"] {
      margin: 0;
      color: var(--_muted);
      font-size: 0.9em;
    }
    [part~="exit-code"] {
      margin: 0;
      color: var(--_success);
      font-family: var(--_font-mono);
      font-size: 0.9em;
    }
    [part~="exit-code"]:not([data-code="0"]) {
      color: var(--_error);
    }
    [part~="section"] {
      display: flex;
      flex-direction: column;
      gap: 2px;
    }
    /* The rows are elements: the whitespace between them in the template is not text to show. */
    [part~="diff"] {
      white-space: normal;
    }
    [part~="diff-text"] {
      white-space: pre-wrap;
    }
    /* A long diff's groups of rows (diff-rows.ts sets their size until laid out). */
    .rows {
      content-visibility: auto;
    }
    /* The text's column has no minimum of its own (it wraps anywhere): a grid sizing a 1fr column measures its text's
     * min-content first, which for a line of 9 KB cost WebKit two thirds of the row's layout. */
    [part~="diff-line"] {
      display: grid;
      grid-template-columns: 1.5ch minmax(2ch, max-content) minmax(0, 1fr);
      column-gap: 1ch;
    }
    [part~="diff-number"] {
      color: var(--_muted);
      text-align: end;
    }
    [part~="diff-added"] {
      color: var(--_success);
    }
    [part~="diff-removed"] {
      color: var(--_error);
    }
    [part~="diff-context"] [part~="diff-text"],
    [part~="diff-other"] {
      color: var(--_muted);
    }
    /* pi inverts the changed words: the line's colour becomes their background. */
    [part~="diff-mark"] {
      border-radius: 2px;
    }
    [part~="diff-added"] [part~="diff-mark"] {
      background: var(--_success);
      color: var(--_bg);
    }
    [part~="diff-removed"] [part~="diff-mark"] {
      background: var(--_error);
      color: var(--_bg);
    }
    @media (forced-colors: active) {
      [part~="base"] {
        border-color: CanvasText;
      }
      [part~="diff-line"] [part~="diff-mark"] {
        background: Highlight;
        color: HighlightText;
        forced-color-adjust: none;
      }
      [part~="toggle-button"] {
        text-decoration: underline;
      }
    }
  `,
];
