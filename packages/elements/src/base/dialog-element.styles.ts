/** The frame every dialog shares: the `<dialog>` box, heading with countdown, buttons. Private `--_*` tokens only. */
import { css } from "lit";

export const dialogStyles = css`
  :host {
    display: block;
  }
  :host(:not([open])) {
    display: none;
  }
  dialog {
    position: relative;
    inset: auto;
    display: block;
    box-sizing: border-box;
    inline-size: 100%;
    max-inline-size: 100%;
    margin: 0;
    padding: calc(var(--_space) * 1.5);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_bg);
    color: var(--_text);
  }
  dialog:not([open]) {
    display: none;
  }
  :host([modal]) dialog {
    position: fixed;
    inset: 0;
    margin: auto;
    inline-size: min(40rem, calc(100vw - 2rem));
    max-block-size: calc(100dvh - 2rem);
    box-shadow: 0 0.5rem 2rem rgb(0 0 0 / 0.35);
  }
  dialog::backdrop {
    background: rgb(0 0 0 / 0.45);
  }
  /* The heading, body and actions: all a dialog shown by pi-extension-ui renders (the host draws the frame). */
  .content {
    display: flex;
    flex-direction: column;
    gap: var(--_space);
  }
  .heading {
    margin: 0;
    font-size: 1em;
    font-weight: 600;
    color: var(--_accent);
    overflow-wrap: anywhere;
  }
  /* Line breaks and indentation in a title are kept, as pi's terminal shows them. */
  .heading-text {
    white-space: pre-wrap;
  }
  .untitled {
    font-weight: normal;
    font-style: italic;
    color: var(--_muted);
  }
  [part="countdown"] {
    font-weight: normal;
    color: var(--_muted);
    font-variant-numeric: tabular-nums;
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    justify-content: flex-end;
    gap: var(--_space);
  }
  button {
    font: inherit;
    color: var(--_text);
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: calc(var(--_space) * 0.5) calc(var(--_space) * 1.5);
    min-block-size: 2rem;
    cursor: pointer;
  }
  button:hover {
    background: var(--_selected-bg);
  }
  /* The action the dialog suggests is filled with the accent; hovering darkens it (light) or lightens it (dark). */
  button.primary {
    color: var(--_bg);
    background: var(--_accent);
    border-color: var(--_accent);
    font-weight: 600;
  }
  button.primary:hover {
    background: color-mix(in oklab, var(--_accent) 85%, var(--_text));
  }
  input,
  textarea {
    font: inherit;
    color: var(--_text);
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: calc(var(--_space) * 0.5) var(--_space);
    box-sizing: border-box;
    inline-size: 100%;
  }
  .hint {
    margin: 0;
    color: var(--_muted);
    font-size: 0.9em;
  }
  /*
   * Arming (the first moments on screen, when a press is ignored): the controls are dimmed, keep their look on hover,
   * and show a waiting cursor, while a bar under them fills up to the moment they respond. Without motion, the bar
   * is shown full and faint instead of filling.
   */
  [aria-disabled="true"] {
    opacity: 0.55;
    cursor: progress;
  }
  button[aria-disabled="true"]:hover {
    background: var(--_surface);
  }
  button.primary[aria-disabled="true"]:hover {
    background: var(--_accent);
  }
  /* Out of the flow, in the frame's bottom padding: nothing moves when it goes (the prompt below an inline dialog). */
  .content {
    position: relative;
  }
  .arming {
    position: absolute;
    inset-inline-start: 0;
    inset-block-end: calc(var(--_space) * -0.75 - 1.5px);
    block-size: 3px;
    border-radius: 2px;
    background: var(--_accent);
    animation: pi-arming var(--_arming-time, 500ms) linear both;
  }
  @keyframes pi-arming {
    from {
      inline-size: 0%;
    }
    to {
      inline-size: 100%;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .arming {
      animation: none;
      inline-size: 100%;
      opacity: 0.4;
    }
  }
  @media (forced-colors: active) {
    button.primary {
      border-width: 2px;
    }
    [aria-disabled="true"] {
      color: GrayText;
      border-color: GrayText;
    }
    .arming {
      background: GrayText;
    }
  }
`;
