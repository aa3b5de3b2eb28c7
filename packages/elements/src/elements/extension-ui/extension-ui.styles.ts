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
     * dialog and the modal alike.
     */
    [part~="dialog"] {
      background: var(--_bg);
      border-radius: var(--_radius);
    }
    [part~="queue"] {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: calc(var(--_space) / 2);
      margin-block-end: calc(var(--_space) / 2);
      color: var(--_muted);
    }
    [part~="queue-position"] {
      font-variant-numeric: tabular-nums;
    }
    [part~="queue"] button {
      font: inherit;
      color: var(--_text);
      background: var(--_surface);
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      min-block-size: 1.75rem;
      min-inline-size: 1.75rem;
      padding: 0 calc(var(--_space) * 0.75);
      cursor: pointer;
    }
    [part~="queue"] button:hover:not(:disabled) {
      background: var(--_selected-bg);
    }
    [part~="queue"] button:disabled {
      color: var(--_muted);
      cursor: default;
    }
    /* A timed dialog waiting behind the shown one: drawn in the warning colour, its title cut to one line. */
    [part~="queue"] [part~="queue-timed-button"] {
      max-inline-size: 100%;
      overflow: hidden;
      white-space: nowrap;
      text-overflow: ellipsis;
      border-color: var(--_warning);
      font-variant-numeric: tabular-nums;
    }
    /* The arrows point the way the queue reads. */
    .arrow:dir(rtl) {
      display: inline-block;
      transform: scaleX(-1);
    }
    /* The one frame around the queue bar and the shown dialog, inline or modal. */
    dialog {
      box-sizing: border-box;
      padding: calc(var(--_space) * 1.5);
      color: var(--_text);
      border: 1px solid var(--_border);
    }
    /* Inline: in the flow above the slotted prompt, as wide as the host. */
    dialog[open]:not(:modal) {
      position: static;
      display: block;
      inline-size: auto;
      max-inline-size: none;
      margin: 0 0 var(--_space);
    }
    dialog:modal {
      inline-size: min(40rem, calc(100vw - 2rem));
      max-block-size: calc(100dvh - 2rem);
      box-shadow: 0 0.5rem 2rem rgb(0 0 0 / 0.35);
    }
    dialog::backdrop {
      background: rgb(0 0 0 / 0.45);
    }
  `,
];
