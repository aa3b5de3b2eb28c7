import { css } from "lit";

export const editorStyles = css`
  textarea {
    field-sizing: content;
    min-block-size: 4.5em;
    max-block-size: 60vh;
    resize: vertical;
    font-family: var(--_font-mono);
    line-height: 1.4;
    tab-size: 4;
  }
`;
