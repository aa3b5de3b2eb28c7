import { css } from "lit";
import { ansiStyles } from "../../ansi/ansi.styles.js";
import { tokens } from "../../theme/tokens.js";

export const styles = [
  tokens,
  ansiStyles,
  css`
    :host {
      display: block;
      font-family: var(--_font-mono);
      line-height: 1.45;
    }
    [part~="base"] {
      display: flex;
      flex-direction: column;
      gap: calc(var(--_space) / 2);
    }
    [part~="widget"] {
      padding: calc(var(--_space) / 2) var(--_space);
      background: var(--_surface);
      border-inline-start: 3px solid var(--_border);
      border-radius: 2px;
    }
    [part~="line"] {
      min-block-size: 1lh;
      white-space: pre-wrap;
      overflow-wrap: anywhere;
      tab-size: 4;
    }
    [part~="toggle-button"] {
      display: block;
      margin: 0;
      padding: 0;
      border: 0;
      background: none;
      color: var(--_muted);
      font: inherit;
      text-align: start;
      cursor: pointer;
      /* Shapes the focus ring only: the toggle has no border or background. */
      border-radius: 2px;
    }
    [part~="toggle-button"]:hover {
      color: var(--_text);
      text-decoration: underline;
    }
    @media (forced-colors: active) {
      [part~="widget"] {
        border: 1px solid CanvasText;
        border-inline-start-width: 3px;
      }
      [part~="toggle-button"] {
        text-decoration: underline;
      }
    }
  `,
];
