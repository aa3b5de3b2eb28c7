/**
 * The rows of an edit's diff. A diff of up to `DIFF_AT_ONCE` rows is drawn at once, its rows straight inside the diff,
 * as before. A longer one (up to 2,000 rows) is drawn in groups of `DIFF_GROUP` rows, each in a box that the engine
 * lays out and paints only near the view (`content-visibility: auto`, in the styles), and over several tasks: the
 * first render draws one group (what is in view first), each later one at most `GROUPS_PER_TASK` groups that are new
 * or whose rows changed, and asks for the next render in a task after the next frame. A group keeps the rows it was
 * drawn with until its turn comes, so no row ever goes missing: the word marks that arrive for a long diff light up
 * two groups a task, top first. The card's `updateComplete` waits for every group (`rowsPending`).
 *
 * Drawn at once, pi's diff of 400 modified lines (1,200 rows) took one task of some 190 ms in Chromium here (30 to
 * 45 ms to make the rows, 35 of style, 90 to 100 of layout, 18 of pre-paint), then one of 60 ms to lay them all out
 * again when their word marks came. In groups, its longest task took 17 to 40 ms, most 10 to 20.
 */
import { html, type TemplateResult } from "lit";
import { guard } from "lit/directives/guard.js";
import { afterNextFrame } from "../../internal/after-frame.js";
import type { DiffRow } from "./edit-diff.js";
import type { ToolRenderContext } from "./registry.js";

/** A diff of up to this many rows is drawn at once, in one render. */
export const DIFF_AT_ONCE = 100;
/** Rows in a group of a longer diff: what is laid out at a time. */
export const DIFF_GROUP = 50;
/** Groups a render draws at most after the first. */
const GROUPS_PER_TASK = 2;

interface Drawing {
  /** The rows of each group on display, as they were drawn. */
  groups: (readonly DiffRow[])[];
  /** How many characters a row's number and text columns hold, once a row has been laid out. */
  columns?: number;
  /** The next render, while one is asked for: settles when it is. */
  next?: Promise<void>;
}

/** Each card's long diff as drawn so far. */
const drawings = new WeakMap<object, Drawing>();

const width = (element: Element | undefined) => element?.getBoundingClientRect().width ?? 0;

/** One row: its sign, line number and text in their columns, the changed words marked. */
const line = (row: DiffRow) =>
  html`<div part="diff-line diff-${row.kind}"
    ><span part="diff-sign">${row.kind === "added" ? "+" : row.kind === "removed" ? "-" : " "}</span
    ><span part="diff-number">${row.lineNumber}</span
    ><span part="diff-text">${
      row.pieces
        ? row.pieces.map((piece) => (piece.changed ? html`<mark part="diff-mark">${piece.text}</mark>` : piece.text))
        : row.text
    }</span></div
  >`;

/** A row shows the same as another: the pieces are the same array when the marks are (edit-diff.ts keeps them). */
const same = (a: DiffRow, b: DiffRow) =>
  a.kind === b.kind && a.lineNumber === b.lineNumber && a.text === b.text && a.pieces === b.pieces;

/** The rows of a diff for the card of `context`: at once, or (a long diff) in groups over several tasks. */
export function diffRows(rows: readonly DiffRow[], context: ToolRenderContext): TemplateResult[] {
  const card = context.element;
  if (rows.length <= DIFF_AT_ONCE) {
    drawings.delete(card);
    return rows.map(line);
  }
  const drawing = drawings.get(card) ?? { groups: [] };
  drawings.set(card, drawing);
  const { groups } = drawing;
  const count = Math.ceil(rows.length / DIFF_GROUP);
  groups.length = Math.min(groups.length, count);
  let budget = groups.length > 0 ? GROUPS_PER_TASK : 1;
  let k = 0;
  for (; k < count; k++) {
    const group = rows.slice(k * DIFF_GROUP, (k + 1) * DIFF_GROUP);
    const drawn = groups[k];
    if (drawn?.length === group.length && group.every((row, i) => same(row, drawn[i] as DiffRow))) continue;
    if (budget-- === 0) break;
    groups[k] = group;
  }
  if (k < count) {
    drawing.next ??= new Promise((resolve) =>
      afterNextFrame(() => {
        // The first row has been laid out by now: its sign column is 1.5ch wide, its number and text columns the rest.
        const [sign, number, text] = card.shadowRoot?.querySelector('[part~="diff-line"]')?.children ?? [];
        drawing.columns ||= Math.floor((1.5 * (width(number) + width(text))) / width(sign)) || undefined;
        drawing.next = undefined;
        context.requestUpdate();
        resolve();
      }),
    );
  }
  // A group is drawn again only when its rows are others than last time (a guard on the array it was drawn with).
  // Until it is laid out, it takes the lines its rows would wrap to at the measured width, a row's number taking at
  // least 2ch of it (a line a row while the width is not known: NaN columns); "auto" then keeps its real size. Set on
  // the group itself (not as a custom property, which its rows would inherit and be styled and laid out again for).
  const room = (row: DiffRow) => Math.max(1, (drawing.columns ?? Number.NaN) - Math.max(2, row.lineNumber.length));
  return groups.map((group) => {
    const lines = group.reduce((sum, row) => sum + (Math.ceil(row.text.length / room(row)) || 1), 0);
    const size = `contain-intrinsic-block-size:auto ${lines}lh`;
    return html`<div class="rows" .style=${size}>${guard([group], () => group.map(line))}</div>`;
  });
}

/** While a card's long diff has groups still to draw: settles once the next render is asked for. */
export const rowsPending = (card: object): Promise<void> | undefined => drawings.get(card)?.next;
