import { css } from "lit";
import { tokens } from "../../theme/tokens.js";

export const styles = [
  tokens,
  css`
    /* A forced theme reaches the code blocks (each has its own colour scheme) through the inherited property. */
    :host([theme="light"]) {
      --pi-color-scheme: light;
    }
    :host([theme="dark"]) {
      --pi-color-scheme: dark;
    }
    /* Its own background, so that its text has contrast in either scheme wherever it is placed; a container that
       paints one (a transcript's message) sets --pi-markdown-background: transparent. */
    :host {
      display: block;
      background: var(--pi-markdown-background, var(--_bg));
      line-height: 1.55;
      overflow-wrap: anywhere;
    }
    /*
     * The blocks are in groups of 32 (see render). A group of final blocks is contained
     * (layout and style): what grows after it never lays it out again, so an update's layout does not grow with the
     * message. Containment keeps the margins of its blocks inside it: every block's bottom margin is --_space, so the
     * block after a contained group has --_space less at its top, and the gap is what the two margins collapsed to.
     */
    .final {
      contain: layout style;
    }
    .final + .group > :first-child {
      margin-block-start: 0;
    }
    .final + .group > :is(h1, h2, h3, h4, h5, h6):first-child {
      margin-block-start: var(--_space);
    }
    [part~="base"] > .group:first-child > :first-child {
      margin-block-start: 0;
    }
    [part~="base"] > .group:last-child > :last-child {
      margin-block-end: 0;
    }
    p,
    ul,
    ol,
    blockquote,
    [part~="limit-note"] {
      margin-block: calc(var(--_space) / 2) var(--_space);
      color: var(--_muted);
    }
    /* The text's size, set once on the message's own blocks: a paragraph in a quote or a list in an item keeps its
     * container's (set on every level, it shrank by an eighth per level: 8 px text four lists deep; and WebKit took
     * 5-8 ms a level for each new size the first time). */
    .group > :where(p, ul, ol, blockquote, [part~="limit-note"]) {
      font-size: 0.875em;
    }
    [part~="format-anyway"] {
      margin-inline-start: 0.5em;
      padding: 0.1em 0.6em;
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      background: var(--_surface);
      color: inherit;
      font: inherit;
      cursor: pointer;
    }
    [part~="table-region"] {
      margin-block: 0 var(--_space);
    }
    h1,
    h2,
    h3,
    h4,
    h5,
    h6 {
      margin-block: calc(var(--_space) * 2) var(--_space);
      line-height: 1.25;
    }
    h1 {
      font-size: 1.5em;
    }
    h2 {
      font-size: 1.3em;
    }
    h3 {
      font-size: 1.15em;
    }
    h4,
    h5,
    h6 {
      font-size: 1em;
    }
    ul,
    ol {
      padding-inline-start: 1.75em;
    }
    /* An item whose direction differs from its list's has its marker on the other side: the room for it moves too. */
    :is(ul, ol):dir(ltr) > li:dir(rtl),
    :is(ul, ol):dir(rtl) > li:dir(ltr) {
      margin-inline: 1.75em -1.75em;
    }
    li > p {
      margin-block: 0 calc(var(--_space) / 2);
    }
    li.task {
      list-style: none;
    }
    li.task > [part~="task"],
    li.task > p > [part~="task"]:first-child {
      margin-inline: -1.4em 0.4em;
      vertical-align: -0.1em;
    }
    blockquote {
      margin-inline: 0;
      padding-inline-start: var(--_space);
      border-inline-start: 3px solid var(--_border);
      color: var(--_muted);
    }
    hr {
      border: none;
      border-block-start: 1px solid var(--_border);
      margin-block: var(--_space);
    }
    a {
      color: var(--_accent);
      text-decoration: underline;
    }
    [part~="code-span"] {
      padding: 0.1em 0.3em;
      border-radius: calc(var(--_radius) / 2);
      background: var(--_surface);
      font-family: var(--_font-mono);
      font-size: 0.92em;
    }
    /* A long text as written, in pieces (long-text.ts): each lays out on its own, so a growing one lays out only its
     * end, and one out of view not at all until it comes near, taken until then for 75 lines (4,096 characters are
     * about 50 lines at 80 a line, about 110 on a phone or in CJK). The last line of a piece may end early: where it
     * was cut. */
    .piece {
      display: block;
      content-visibility: auto;
      contain-intrinsic-size: auto 75lh;
    }
    [part~="raw"] {
      white-space: pre-wrap;
      font-family: var(--_font-mono);
      font-size: 0.92em;
    }
    [part~="table-region"] {
      overflow-x: auto;
      max-inline-size: 100%;
    }
    table {
      border-collapse: collapse;
    }
    th,
    td {
      padding: 0.25em 0.6em;
      border: 1px solid var(--_border);
      text-align: start;
      /*
       * Words stay whole (a container's overflow-wrap: anywhere would let a narrow view squeeze the columns down to a
       * letter each): a table too wide for its words scrolls in its region instead.
       */
      overflow-wrap: normal;
    }
    th {
      background: var(--_surface);
    }
    .align-center {
      text-align: center;
    }
    .align-left {
      text-align: left;
    }
    .align-right {
      text-align: right;
    }
    img {
      max-inline-size: 100%;
    }
  `,
];
