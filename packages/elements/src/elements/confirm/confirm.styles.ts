import { css } from "lit";

export const confirmStyles = css`
  .message {
    margin: 0;
    white-space: pre-wrap;
    /* Each line of the agent's text takes its own direction (English inside an RTL page and vice versa). */
    unicode-bidi: plaintext;
    overflow-wrap: anywhere;
    /* Lined up as the heading is, by the page's direction, not by each line's: plaintext alone aligns an English
       message left under a right-aligned heading in a right-to-left page (and Chromium resolves match-parent per
       line too, so the sides are named). */
    text-align: left;
  }
  :host(:dir(rtl)) .message {
    text-align: right;
  }
  .actions {
    justify-content: flex-start;
  }
`;
