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
    /* pi's "… (widget truncated)" row, then a button that looks like one and names what it does. */
    [part~="truncated"] {
      color: var(--_muted);
    }
    [part~="toggle-button"] {
      display: block;
      margin-block-start: calc(var(--_space) / 2);
      padding: 0.1em 0.6em;
      border: 1px solid var(--_border);
      border-radius: calc(var(--_radius) - 2px);
      background: var(--_bg);
      color: var(--_text);
      font: inherit;
      font-size: 0.9em;
      cursor: pointer;
    }
    [part~="toggle-button"]:hover {
      border-color: var(--_accent);
    }
    @media (forced-colors: active) {
      [part~="widget"] {
        border: 1px solid CanvasText;
        border-inline-start-width: 3px;
      }
      [part~="toggle-button"] {
        border-color: ButtonText;
      }
    }
  `,
];
