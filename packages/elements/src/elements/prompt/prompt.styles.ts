import { css } from "lit";
import { tokens } from "../../theme/tokens.js";

export const styles = [
  tokens,
  css`
    :host {
      display: block;
    }
    [part~="base"] {
      display: flex;
      flex-wrap: wrap;
      align-items: flex-end;
      gap: var(--_space);
      padding: var(--_space);
      background: var(--_surface);
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
    }
    [part~="base"]:focus-within {
      outline: 2px solid var(--_focus);
      outline-offset: 1px;
    }
    textarea {
      flex: 1 1 16rem;
      min-block-size: 1lh;
      max-block-size: 16lh;
      field-sizing: content;
      resize: none;
      margin: 0;
      padding: 0;
      border: 0;
      outline: none;
      background: transparent;
      color: inherit;
      font: inherit;
      font-family: var(--_font-mono);
      line-height: 1.5;
    }
    [part~="actions"] {
      display: flex;
      gap: calc(var(--_space) / 2);
    }
    button {
      font: inherit;
      color: var(--_text);
      background: var(--_bg);
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      padding: calc(var(--_space) / 2) var(--_space);
      cursor: pointer;
    }
    button:disabled {
      cursor: default;
      color: var(--_muted);
    }
    [part~="send"],
    [part~="steer"] {
      border-color: var(--_accent);
    }
    /* The border carries the colour: pi's dark error red is just short of AA as text on the background. */
    [part~="abort"] {
      border-color: var(--_error);
      box-shadow: inset 0 0 0 1px var(--_error);
    }
    [part~="status"] {
      flex-basis: 100%;
      color: var(--_warning);
    }
    /* Out of the flow while empty, but kept in the tree so the live region announces its first message. */
    [part~="status"]:empty {
      position: absolute;
    }
    [part~="agent-exit"] {
      flex-basis: 100%;
      padding-inline-start: var(--_space);
      border-inline-start: 3px solid var(--_error);
    }
    summary {
      cursor: pointer;
    }
    [part~="stderr"] {
      margin: calc(var(--_space) / 2) 0 0;
      font-family: var(--_font-mono);
      font-size: 0.9em;
      color: var(--_muted);
      white-space: pre-wrap;
      overflow-wrap: anywhere;
    }
    @media (forced-colors: active) {
      button:disabled {
        color: GrayText;
      }
    }
  `,
];
