import { css } from "lit";
import { tokens } from "../../theme/tokens.js";

/**
 * The syntax colours are pi's theme syntax colours (its light and dark themes are VS Code's Light+ and Dark+), as
 * `--pi-color-syntax-*` tokens with those defaults; each passes WCAG AA on the code background in its scheme.
 */
export const styles = [
  tokens,
  css`
    :host {
      display: block;
      --_syntax-comment: var(--pi-color-syntax-comment, light-dark(#007000, #6a9955));
      --_syntax-keyword: var(--pi-color-syntax-keyword, light-dark(#0000e0, #569cd6));
      --_syntax-function: var(--pi-color-syntax-function, light-dark(#795e26, #dcdcaa));
      --_syntax-variable: var(--pi-color-syntax-variable, light-dark(#001080, #9cdcfe));
      --_syntax-string: var(--pi-color-syntax-string, light-dark(#a31515, #ce9178));
      --_syntax-number: var(--pi-color-syntax-number, light-dark(#07704a, #b5cea8));
      --_syntax-type: var(--pi-color-syntax-type, light-dark(#1d6a80, #4ec9b0));
      margin-block: var(--_space);
    }
    [part~="base"] {
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      background: var(--_surface);
      overflow: hidden;
    }
    [part~="header"] {
      display: flex;
      align-items: center;
      gap: var(--_space);
      padding-block: calc(var(--_space) / 4);
      padding-inline: var(--_space) calc(var(--_space) / 4);
      border-block-end: 1px solid var(--_border);
      font-size: 0.85em;
    }
    [part~="language"] {
      flex: 1;
      color: var(--_muted);
      font-family: var(--_font-mono);
    }
    [part~="copy"] {
      margin-inline-start: auto;
      padding: 0.15em 0.6em;
      border: 1px solid var(--_border);
      border-radius: calc(var(--_radius) - 2px);
      background: var(--_bg);
      color: var(--_text);
      font: inherit;
      cursor: pointer;
    }
    [part~="copy"]:hover {
      border-color: var(--_accent);
    }
    [part~="copy"][data-state="copied"] {
      color: var(--_accent);
      border-color: var(--_accent);
    }
    [part~="copy"][data-state="failed"] {
      color: var(--_error);
      border-color: var(--_error);
    }
    [part~="code"] {
      margin: 0;
      padding: var(--_space);
      overflow: auto;
      max-block-size: var(--pi-code-block-max-height, none);
      font-family: var(--_font-mono);
      font-size: 0.95em;
      line-height: 1.45;
      white-space: pre;
      tab-size: 4;
    }
    code {
      font: inherit;
    }
    /*
     * A long code's chunks of 100 lines (chunks.ts): laid out and painted only near the view. As wide as their
     * longest line, so paint containment clips nothing and the code scrolls sideways as one; off screen, as tall as
     * they were when last laid out, or 100 lines (line-height 1.45) before that.
     */
    .chunk {
      display: block;
      inline-size: max-content;
      min-inline-size: 100%;
      content-visibility: auto;
      contain-intrinsic-block-size: auto 145em;
    }
    /*
     * A line of more than 8,192 characters in pieces of about 4,096 (long-lines.ts), side by side: each laid out and
     * painted only near the view, as wide as 4,096 characters until it was. Aligned at the top, as a box out of view
     * has no baseline.
     */
    .piece {
      display: inline-block;
      vertical-align: top;
      content-visibility: auto;
      contain-intrinsic-size: auto 4096ch auto 1lh;
    }
    .hljs-comment,
    .hljs-quote {
      color: var(--_syntax-comment);
      font-style: italic;
    }
    .hljs-keyword,
    .hljs-selector-tag,
    .hljs-literal,
    .hljs-doctag,
    .hljs-meta .hljs-keyword {
      color: var(--_syntax-keyword);
    }
    .hljs-title,
    .hljs-section,
    .hljs-selector-id {
      color: var(--_syntax-function);
    }
    .hljs-variable,
    .hljs-template-variable,
    .hljs-attr,
    .hljs-attribute,
    .hljs-params,
    .hljs-property,
    .hljs-name {
      color: var(--_syntax-variable);
    }
    .hljs-string,
    .hljs-regexp,
    .hljs-symbol,
    .hljs-char,
    .hljs-link,
    .hljs-selector-attr,
    .hljs-selector-pseudo,
    .hljs-template-tag {
      color: var(--_syntax-string);
    }
    .hljs-number,
    .hljs-bullet,
    .hljs-addition {
      color: var(--_syntax-number);
    }
    .hljs-type,
    .hljs-built_in,
    .hljs-class,
    .hljs-title.class_,
    .hljs-selector-class {
      color: var(--_syntax-type);
    }
    .hljs-meta,
    .hljs-subst,
    .hljs-punctuation,
    .hljs-operator {
      color: var(--_text);
    }
    .hljs-deletion {
      color: var(--_error);
    }
    .hljs-emphasis {
      font-style: italic;
    }
    .hljs-strong {
      font-weight: bold;
    }
    @media (forced-colors: active) {
      [part~="code"] * {
        color: CanvasText;
      }
    }
  `,
];
