import { css } from "lit";
import { tokens } from "../../theme/tokens.js";

export const styles = [
  tokens,
  css`
    :host {
      display: flex;
      flex-direction: column;
      position: relative;
      min-block-size: 0;
      block-size: 100%;
      background: var(--_bg);
      line-height: 1.5;
    }
    [hidden] {
      display: none !important;
    }
    [part~="toolbar"] {
      display: flex;
      justify-content: flex-end;
      padding: calc(var(--_space) / 2) var(--_space);
      border-block-end: 1px solid var(--_border);
    }
    button {
      font: inherit;
      color: var(--_text);
      background: var(--_surface);
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      padding: 0.125rem 0.5rem;
      cursor: pointer;
    }
    button[aria-pressed="true"] {
      background: var(--_selected-bg);
    }
    svg {
      inline-size: 1em;
      block-size: 1em;
      fill: none;
      stroke: currentColor;
      stroke-width: 1.4;
      stroke-linecap: round;
      stroke-linejoin: round;
      vertical-align: -0.125em;
    }
    [part~="base"] {
      flex: 1 1 auto;
      min-block-size: 0;
      overflow-y: auto;
      /*
       * Scroll anchoring stays on: an article above the view laid out for the first time (content-visibility) takes
       * its real size instead of the estimate, and anchoring keeps the reader's place; at the end, the component
       * follows the newest text itself.
       */
      overflow-anchor: auto;
    }
    [part~="feed"] {
      display: flex;
      flex-direction: column;
      gap: var(--_space);
      padding: var(--_space);
    }
    [part~="entry"] {
      /*
       * Long sessions: an article far from the viewport is not laid out or painted, yet its text stays in the DOM,
       * so find-in-page and screen readers still reach it. "auto" remembers each article's last real size.
       */
      content-visibility: auto;
      contain-intrinsic-size: auto 6rem;
      border-radius: var(--_radius);
      padding: var(--_space);
      overflow-wrap: anywhere;
    }
    [part~="streaming"] {
      content-visibility: visible;
    }
    [data-role="user"] {
      background: var(--_surface);
    }
    [part~="notice"],
    [data-role="bashExecution"],
    [data-role="custom"],
    [data-role="compactionSummary"],
    [data-role="branchSummary"],
    [data-role="other"],
    [data-role="toolResult"] {
      border: 1px solid var(--_border);
      color: var(--_text);
    }
    [data-notice="retry"] {
      border-color: var(--_warning);
    }
    [data-notice="extension_error"] {
      border-color: var(--_error);
    }
    header {
      display: flex;
      align-items: center;
      justify-content: space-between;
      gap: var(--_space);
    }
    [part~="author"] {
      margin: 0;
      font-size: inherit;
      font-weight: 600;
      color: var(--_muted);
    }
    [part~="time"] {
      margin-inline-end: auto;
      color: var(--_muted);
      font-size: 0.85em;
      font-variant-numeric: tabular-nums;
    }
    [part~="copy"] {
      padding: 0.125rem 0.25rem;
      background: transparent;
      border-color: transparent;
      color: var(--_muted);
    }
    [part~="copy"]:hover,
    [part~="copy"]:focus-visible,
    [part~="copy"][data-copied] {
      color: var(--_text);
      border-color: var(--_border);
    }
    /* For the moment after a copy, the button says so in words beside its icon (its title is "Copied" then). */
    [part~="copy"][data-copied]::after {
      content: attr(title);
      margin-inline-start: 0.25em;
      font-size: 0.85em;
    }
    article p {
      margin: 0.25rem 0;
    }
    .plain {
      white-space: pre-wrap;
    }
    .caption {
      color: var(--_muted);
    }
    .json {
      font-family: var(--_font-mono);
      white-space: pre-wrap;
      margin: 0;
    }
    .image {
      display: block;
      max-inline-size: min(100%, 32rem);
      max-block-size: 24rem;
      border-radius: var(--_radius);
      margin-block: 0.25rem;
    }
    [part~="thinking"] {
      color: var(--_muted);
      font-style: italic;
      margin-block: 0.25rem;
    }
    [part~="thinking"] > summary {
      cursor: pointer;
      font-style: normal;
    }
    [part~="error"] {
      color: var(--_error);
    }
    pi-markdown,
    pi-code-block,
    pi-tool-card {
      display: block;
      margin-block: 0.25rem;
    }
    [part~="jump"] {
      position: absolute;
      inset-block-end: var(--_space);
      inset-inline-end: calc(var(--_space) * 2);
      box-shadow: 0 1px 4px rgb(0 0 0 / 25%);
    }
    article:focus-visible {
      outline: 2px solid var(--_focus);
      outline-offset: 1px;
    }
  `,
];
