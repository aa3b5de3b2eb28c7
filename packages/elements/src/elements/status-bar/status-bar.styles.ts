import { css } from "lit";
import { ansiStyles } from "../../ansi/ansi.styles.js";
import { tokens } from "../../theme/tokens.js";

export const styles = [
  tokens,
  ansiStyles,
  css`
    :host {
      display: block;
      /* The one-line bar truncates itself: as a grid or flex item it must not widen its track to fit every entry. */
      min-inline-size: 0;
      background: var(--_surface);
      font-family: var(--_font-mono);
      line-height: 1.5;
    }
    /* As pi's status line: the entries run on one line that ends in an ellipsis where it no longer fits. */
    [part~="base"] {
      margin: 0;
      padding: calc(var(--_space) / 2) var(--_space);
      list-style: none;
      overflow: hidden;
      white-space: nowrap;
      text-overflow: ellipsis;
    }
    [part~="base"][hidden] {
      display: none;
    }
    [part~="entry"] {
      display: inline;
      /* Each status is its own run of text: under dir=rtl the entries run from the right in every engine (WebKit
         otherwise orders adjacent left-to-right statuses, such as CJK, as one run from the left). */
      unicode-bidi: isolate;
      white-space: pre;
      /* Shapes the focus ring only: an entry has no border or background. */
      border-radius: 2px;
    }
    [part~="entry"]:not(:last-child) {
      margin-inline-end: 1.5ch;
    }
    /* Wrapping mode, and the one-line mode while an entry has keyboard focus: everything unfolds. */
    :host([wrap]) [part~="base"],
    [part~="base"]:focus-within {
      white-space: normal;
    }
    :host([wrap]) [part~="entry"],
    [part~="base"]:focus-within [part~="entry"] {
      white-space: pre-wrap;
      overflow-wrap: anywhere;
    }
  `,
];
