import { css } from "lit";

export const confirmStyles = css`
  .message {
    margin: 0;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  .actions {
    justify-content: flex-start;
  }
`;
