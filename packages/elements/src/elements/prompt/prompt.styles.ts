import { css } from "lit";
import { tokens } from "../../theme/tokens.js";

export const styles = [
  tokens,
  css`
    :host {
      display: block;
    }
    [part~="base"] {
      position: relative;
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
    button:disabled,
    [part~="actions"] button[aria-disabled="true"] {
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
    [part~="status"].running {
      color: var(--_muted);
    }
    /* Out of the flow while empty, but kept in the tree so the live region announces its first message. */
    [part~="status"]:empty {
      position: absolute;
    }
    [part~="error"] {
      flex-basis: 100%;
      margin: 0;
      padding-inline-start: var(--_space);
      border-inline-start: 3px solid var(--_error);
      white-space: pre-wrap;
      overflow-wrap: anywhere;
    }
    [part~="login-advice"] {
      display: block;
      margin-block-start: 0.5em;
      font-weight: 600;
    }
    /* The queue and the images sit above the text, across the whole box. */
    [part~="queue"],
    [part~="images"] {
      flex-basis: 100%;
      display: flex;
      flex-direction: column;
      gap: calc(var(--_space) / 2);
      margin: 0;
      padding: 0;
      list-style: none;
    }
    [part~="queued"] {
      display: flex;
      align-items: baseline;
      gap: var(--_space);
      padding-inline-start: var(--_space);
      border-inline-start: 3px solid var(--_border);
    }
    [part~="queued"][part~="steering"] {
      border-inline-start-color: var(--_accent);
    }
    [part~="queued-kind"] {
      color: var(--_muted);
      white-space: nowrap;
    }
    [part~="queued-text"] {
      flex: 1;
      white-space: pre-wrap;
      overflow-wrap: anywhere;
    }
    [part~="queue-note"] {
      flex-basis: 100%;
      margin: 0;
      color: var(--_muted);
    }
    [part~="images"] {
      flex-direction: row;
      flex-wrap: wrap;
    }
    [part~="image"] {
      position: relative;
    }
    [part~="thumbnail"] {
      display: block;
      inline-size: 4rem;
      block-size: 4rem;
      object-fit: cover;
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
    }
    [part~="remove-image-button"] {
      position: absolute;
      inset-block-start: 0;
      inset-inline-end: 0;
      padding: 0 0.4em;
      line-height: 1.4;
    }
    [part~="agent-exit"] {
      flex-basis: 100%;
      padding-inline-start: var(--_space);
      border-inline-start: 3px solid var(--_error);
    }
    /* pi ended by itself (exit code 0): not an error. */
    [part~="agent-exit"].clean {
      border-inline-start-color: var(--_border);
    }
    summary {
      cursor: pointer;
    }
    [part~="restart-button"],
    [part~="restart-never"] {
      margin: calc(var(--_space) / 2) 0 0;
    }
    [part~="restart-button"][aria-disabled="true"] {
      opacity: 0.6;
      cursor: progress;
    }
    [part~="stderr"] {
      margin: calc(var(--_space) / 2) 0 0;
      font-family: var(--_font-mono);
      font-size: 0.9em;
      color: var(--_muted);
      white-space: pre-wrap;
      overflow-wrap: anywhere;
    }
    /* The completion list opens above the box (a prompt sits at the bottom of a page), as wide as it. */
    [part~="completions"] {
      position: absolute;
      inset-inline: 0;
      inset-block-end: calc(100% + 2px);
      z-index: 1;
      margin: 0;
      padding: calc(var(--_space) / 2) 0;
      list-style: none;
      background: var(--_bg);
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      box-shadow: 0 0.25rem 1rem rgb(0 0 0 / 0.25);
    }
    [part~="completions"].below {
      inset-block-end: auto;
      inset-block-start: calc(100% + 2px);
    }
    [part~="completion"] {
      padding: calc(var(--_space) / 2) var(--_space);
      cursor: pointer;
      white-space: nowrap;
      overflow: hidden;
      text-overflow: ellipsis;
    }
    [part~="completion"][aria-selected="true"] {
      background: var(--_selected-bg);
    }
    [part~="completion-name"] {
      font-family: var(--_font-mono);
      color: var(--_accent);
    }
    [part~="completion-hint"] {
      font-family: var(--_font-mono);
    }
    [part~="completion-description"] {
      color: var(--_muted);
    }
    [part~="completion-count"] {
      padding: calc(var(--_space) / 4) var(--_space) 0;
      color: var(--_muted);
      font-size: 0.85em;
    }
    /* On the current row's ground the accent and muted colours fall below 4.5:1: it is all text colour there. */
    [aria-selected="true"] > [part] {
      color: var(--_text);
    }
    @media (forced-colors: active) {
      button:disabled,
      [part~="actions"] button[aria-disabled="true"] {
        color: GrayText;
      }
      [part~="completion"][aria-selected="true"] {
        forced-color-adjust: none;
        background: Highlight;
        color: HighlightText;
      }
    }
  `,
];
