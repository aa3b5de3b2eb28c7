import { css } from "lit";

export const confirmStyles = css`
  .message {
    margin: 0;
    white-space: pre-wrap;
    /* Each line of the agent's text takes its own direction (English inside an RTL page and vice versa). */
    unicode-bidi: plaintext;
    overflow-wrap: anywhere;
  }
  .actions {
    justify-content: flex-start;
  }
`;
