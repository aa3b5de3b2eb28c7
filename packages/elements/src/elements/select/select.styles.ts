import { css } from "lit";

export const selectStyles = css`
  [part~="listbox"] {
    margin: 0;
    padding: 0;
    list-style: none;
    max-block-size: min(18rem, 50vh);
    overflow-y: auto;
    overscroll-behavior: contain;
    border-radius: var(--_radius);
  }
  [part~="option"] {
    /* A set line height: with "normal", a fallback font (CJK, emoji) makes its row taller than a Latin one. */
    line-height: 1.5;
    display: flex;
    gap: 0.5ch;
    padding: calc(var(--_space) * 0.5) var(--_space);
    border-radius: var(--_radius);
    cursor: pointer;
    overflow-wrap: anywhere;
    white-space: pre-wrap;
  }
  /* pi marks the current row with an arrow; the arrow is decoration (empty alternative text). */
  [part~="option"]::before {
    content: "→" / "";
    visibility: hidden;
    color: var(--_accent);
    flex: none;
  }
  [part~="active"]::before {
    visibility: visible;
  }
  :dir(rtl) [part~="option"]::before {
    content: "←" / "";
  }
  [part~="option"]:hover {
    background: var(--_surface);
  }
  /* Coloured option text stays at 4.5:1 on the current option's ground. */
  [part~="active"] {
    --_ansi-light-max-l: 0.44;
    --_ansi-dark-min-l: 0.77;
  }
  [part~="active"],
  [part~="active"]:hover {
    background: var(--_selected-bg);
  }
  .count {
    margin: 0;
    color: var(--_muted);
    font-size: 0.9em;
  }
  .empty {
    margin: 0;
    color: var(--_muted);
  }
  @media (forced-colors: active) {
    [part~="active"],
    [part~="active"]:hover {
      color: HighlightText;
      forced-color-adjust: none;
    }
    [part~="active"]::before {
      color: HighlightText;
    }
  }
`;
