import { css } from "lit";
import { ansiStyles } from "../../ansi/ansi.styles.js";
import { tokens } from "../../theme/tokens.js";

export const styles = [
  tokens,
  ansiStyles,
  css`
    :host {
      display: block;
      line-height: 1.4;
    }
    :host([floating]) {
      position: fixed;
      inset-block-end: var(--_space);
      inset-inline-end: var(--_space);
      z-index: 1000;
      max-inline-size: calc(100vw - 2 * var(--_space));
    }
    [part~="base"] {
      display: flex;
      flex-direction: column;
      gap: calc(var(--_space) / 2);
      max-inline-size: var(--pi-notification-width, 32rem);
    }
    [part~="more"] {
      align-self: flex-end;
      margin: 0;
      padding: 0 var(--_space);
      border-radius: var(--_radius);
      background: var(--_surface);
      color: var(--_muted);
    }
    /* The notifications that are not news: one quiet line until opened. */
    [part~="earlier-list"] {
      align-self: flex-end;
      max-inline-size: 100%;
    }
    [part~="earlier-summary"] {
      inline-size: fit-content;
      margin-inline-start: auto;
      padding: 0.1rem var(--_space);
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      background: var(--_surface);
      color: var(--_muted);
      cursor: pointer;
    }
    [part~="earlier-toasts"] {
      display: flex;
      flex-direction: column;
      gap: calc(var(--_space) / 2);
      margin: calc(var(--_space) / 2) 0 0;
      padding: 0;
      list-style: none;
      max-block-size: min(20rem, 50vh);
      overflow-y: auto;
    }
    [part~="earlier-toasts"] [part~="toast"] {
      box-shadow: none;
      animation: none;
    }
    [part~="toasts"] {
      display: flex;
      flex-direction: column;
      gap: calc(var(--_space) / 2);
      margin: 0;
      padding: 0;
      list-style: none;
    }
    [part~="toast"] {
      display: flex;
      align-items: flex-start;
      gap: var(--_space);
      padding: var(--_space);
      padding-inline-start: calc(var(--_space) * 1.5);
      background: var(--_surface);
      border: 1px solid var(--_border);
      border-inline-start: 4px solid var(--_accent-line, var(--_accent));
      border-radius: var(--_radius);
      color: var(--_text);
      box-shadow: 0 2px 8px rgb(0 0 0 / 0.15);
      animation: pi-toast-in var(--_duration) ease-out;
    }
    [part~="toast-warning"] {
      --_accent-line: var(--_warning);
      color: var(--_warning);
    }
    [part~="toast-error"] {
      --_accent-line: var(--_error);
      color: var(--_error);
    }
    /* The type's mark, in its colour: the line, the icon and (warning, error) the text carry it. */
    [part~="icon"] {
      flex: none;
      inline-size: 1.1rem;
      block-size: 1.1rem;
      margin-block-start: 0.1rem;
      color: var(--_accent-line, var(--_accent));
      fill: none;
      stroke: currentColor;
      stroke-width: 1.6;
      stroke-linecap: round;
      stroke-linejoin: round;
    }
    [part~="body"] {
      flex: 1;
      min-inline-size: 0;
      margin: 0;
      white-space: pre-wrap;
      overflow-wrap: anywhere;
    }
    [part~="login-advice"] {
      display: block;
      margin-block-start: 0.25em;
      font-size: 0.9em;
    }
    [part~="earlier"] {
      color: var(--_muted);
      font-size: 0.85em;
    }
    /* Where the error came from: a quiet, monospaced name before the message. */
    [part~="origin"] {
      color: var(--_muted);
      font-family: var(--_font-mono);
      font-size: 0.9em;
    }
    [part~="label"] {
      font-weight: 600;
    }
    [part~="dismiss-button"] {
      flex: none;
      display: grid;
      place-items: center;
      inline-size: 1.75rem;
      block-size: 1.75rem;
      margin: -0.25rem;
      padding: 0;
      border: 0;
      border-radius: var(--_radius);
      background: none;
      color: var(--_text);
      cursor: pointer;
    }
    [part~="dismiss"]:hover {
      background: var(--_selected-bg);
    }
    [part~="dismiss"] svg {
      inline-size: 1rem;
      block-size: 1rem;
      stroke: currentColor;
      stroke-width: 2;
      stroke-linecap: round;
    }
    /* Movement only: a fading toast would pass through unreadable contrast. */
    @keyframes pi-toast-in {
      from {
        translate: 0 0.5rem;
      }
    }
    @media (forced-colors: active) {
      [part~="dismiss-button"] {
        color: ButtonText;
      }
    }
  `,
];
