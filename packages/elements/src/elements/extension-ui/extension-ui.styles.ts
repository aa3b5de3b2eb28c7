import { css } from "lit";
import { tokens } from "../../theme/tokens.js";

export const styles = [
  tokens,
  css`
    :host {
      display: block;
    }
    /* A forced theme reaches what the host contains: the dialog elements it renders and the slotted prompt. */
    :host([theme="light"]) {
      --pi-color-scheme: light;
    }
    :host([theme="dark"]) {
      --pi-color-scheme: dark;
    }
    /*
     * The host paints its own ground so its colours hold in either theme, whatever the page's background: the inline
     * group and the modal alike.
     */
    [part~="dialog"] {
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
      padding: calc(var(--_space) * 1.5);
      color: var(--_text);
      border: 1px solid var(--_border);
      box-shadow: 0 0.5rem 2rem rgb(0 0 0 / 0.35);
    }
    /* The modal is the one box: the dialog element inside keeps its content and drops its own frame. */
    dialog > [part~="dialog-element"]::part(dialog) {
      padding: 0;
      border: 0;
      border-radius: 0;
      background: transparent;
    }
    dialog::backdrop {
      background: rgb(0 0 0 / 0.45);
    }
  `,
];
