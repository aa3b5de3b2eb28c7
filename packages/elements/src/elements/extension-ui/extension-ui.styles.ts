import { css } from "lit";
import { tokens } from "../../theme/tokens.js";

export const styles = [
  tokens,
  css`
    :host {
      display: block;
    }
    /* The host paints its own ground so its colours hold in either theme, whatever the page's background. */
    div[part~="dialog"] {
      background: var(--_bg);
      border-radius: var(--_radius);
    }
    [part~="queue"] {
      display: block;
      margin-block-end: calc(var(--_space) / 2);
      color: var(--_muted);
      font-size: 0.85em;
    }
    dialog {
      box-sizing: border-box;
      inline-size: min(40rem, calc(100vw - 2rem));
      max-block-size: calc(100dvh - 2rem);
      padding: var(--_space);
      color: var(--_text);
      background: var(--_bg);
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
    }
    dialog::backdrop {
      background: rgb(0 0 0 / 0.45);
    }
    @media (forced-colors: active) {
      dialog {
        border-color: CanvasText;
      }
    }
  `,
];
