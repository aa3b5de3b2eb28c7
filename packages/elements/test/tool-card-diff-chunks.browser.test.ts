/**
 * pi-tool-card's long diff drawn in groups (diff-rows.ts): every row of a 2,000-row diff is there once
 * `updateComplete` settles, in order, and the rows shown meanwhile are always the diff's first ones; the last row can
 * be scrolled to and is drawn there, with no gap where one group meets the next; a diff of up to `DIFF_AT_ONCE` rows
 * is drawn as before, in one update, its rows where a long diff's rows are. Layout, `content-visibility` and scrolling
 * are what engines differ on: all three engines.
 */
import { expect, fixture, html, waitUntil } from "@open-wc/testing";
import "../src/elements/tool-card/define.js";
import { DIFF_AT_ONCE, DIFF_GROUP } from "../src/elements/tool-card/diff-rows.js";
import type { PiToolCard } from "../src/elements/tool-card/tool-card.js";
import { editRun } from "./support/edit-run.js";
import { FakeClock } from "./support/fake-clock.js";
import { words } from "./support/words.js";

const rows = (el: PiToolCard) => [...el.shadowRoot!.querySelectorAll<HTMLElement>('[part~="diff-line"]')];
const diff = (el: PiToolCard) => el.shadowRoot!.querySelector<HTMLElement>('[part~="diff"]')!;
/** What a row shows: its kind, line number and text. */
const shown = (row: HTMLElement) =>
  [
    row.getAttribute("part")!.replace("diff-line diff-", ""),
    row.querySelector('[part~="diff-number"]')!.textContent,
    row.querySelector('[part~="diff-text"]')!.textContent,
  ].join(" ");

interface Line {
  kind: "removed" | "added" | "context";
  number: number;
  text: string;
}

/**
 * `count` lines of pi's diff: a modified line (removed, then added with a word changed) then a line of context, over
 * and over, each with a different text.
 */
function lines(count: number): Line[] {
  const out: Line[] = [];
  for (let n = 1; out.length < count; n++) {
    const text = `let v${n} = "${words(8, n)}";`;
    out.push({ kind: "removed", number: n, text }, { kind: "added", number: n, text: text.replace(";", "!;") });
    out.push({ kind: "context", number: n + 1, text: `// ${words(4, n)}` });
  }
  return out.slice(0, count);
}

/** pi's diff text of `lines`: the sign, the line number padded to 5, a space, the text. */
const diffText = (all: Line[]) =>
  all
    .map(
      ({ kind, number, text }) =>
        `${{ removed: "-", added: "+", context: " " }[kind]}${String(number).padStart(5)} ${text}`,
    )
    .join("\n");

const expected = (all: Line[]) => all.map(({ kind, number, text }) => `${kind} ${number} ${text}`);

/** A card of the edit, not yet in the page. */
function card(all: Line[]): PiToolCard {
  const el = document.createElement("pi-tool-card");
  el.call = { type: "toolCall", id: "e1", name: "edit", arguments: { path: "a.ts" } };
  el.execution = editRun(diffText(all), "a.ts");
  el.clock = new FakeClock();
  el.expanded = true;
  return el;
}

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));

/** Whether `row` is drawn where it is: the engine's hit test at its centre finds it (not a group left undrawn). */
function drawnAt(el: PiToolCard, row: HTMLElement, scroller: HTMLElement): boolean {
  const box = row.getBoundingClientRect();
  const view = scroller.getBoundingClientRect();
  if (box.height === 0 || box.top < view.top - 0.5 || box.bottom > view.bottom + 0.5) return false;
  const hit = el.shadowRoot!.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return hit !== null && row.contains(hit);
}

/**
 * Whether `targets` are drawn in view; if not, scrolls the last of them into view, as a person scrolls on until it is
 * there (a group laid out for the first time near the view can take more or less room than was set aside for it).
 */
function scrolledTo(el: PiToolCard, targets: HTMLElement[], scroller: HTMLElement): boolean {
  if (targets.every((row) => drawnAt(el, row, scroller))) return true;
  targets.at(-1)!.scrollIntoView({ block: "end" });
  return false;
}

describe("pi-tool-card's long diff, drawn in groups", () => {
  it("has every one of 2,000 rows, in order, once updateComplete settles; meanwhile only ever its first rows", async () => {
    const all = lines(2_400);
    const want = expected(all).slice(0, 2_000);
    const host = await fixture<HTMLElement>(html`<div style="inline-size: 640px"></div>`);
    const el = card(all);
    // What a person could see at each frame while the rows are drawn and their word marks arrive.
    const seen: string[][] = [];
    let sampling = true;
    const sample = () => {
      seen.push(rows(el).map(shown));
      if (sampling) requestAnimationFrame(sample);
    };
    host.append(el);
    requestAnimationFrame(sample);
    const added = () => rows(el).filter((row) => row.getAttribute("part")!.includes("diff-added"));
    try {
      await el.updateComplete;
      expect(rows(el).map(shown)).to.deep.equal(want);
      expect(el.shadowRoot!.querySelector('[part~="note"]')?.textContent).to.equal("400 lines not shown");
      expect(diff(el).lastElementChild?.getAttribute("part")).to.equal("note");
      // The marks of the modified lines come in later tasks: every pair is marked in the end, the text the same.
      await waitUntil(
        () => added().every((row) => row.querySelector('[part~="diff-mark"]')),
        "every modified line marked",
        { timeout: 20_000 },
      );
    } finally {
      sampling = false;
    }
    expect(rows(el).map(shown)).to.deep.equal(want);
    expect(added()[0]!.querySelector('[part~="diff-mark"]')!.textContent).to.equal("!");
    expect(seen.length, "frames were seen").to.be.above(1);
    let before = 0;
    for (const [i, frame] of seen.entries()) {
      expect(frame, `frame ${i}: the diff's first rows`).to.deep.equal(want.slice(0, frame.length));
      expect(frame.length, `frame ${i}: no fewer rows than the frame before`).to.be.at.least(before);
      before = frame.length;
    }
    expect(diff(el).getAttribute("role")).to.equal("group");
    expect(diff(el).getAttribute("aria-label")).to.equal("Changes");
    expect(diff(el).getAttribute("dir")).to.equal("ltr");
  });

  it("scrolls to its last row, drawn there; one group's rows meet the next's without a gap", async () => {
    const all = lines(2_000);
    const scroller = await fixture<HTMLElement>(
      html`<div style="inline-size: 480px; block-size: 320px; overflow: auto"></div>`,
    );
    const el = card(all);
    scroller.append(el);
    await el.updateComplete;
    const shownRows = rows(el);
    expect(shownRows).to.have.length(2_000);
    expect(scroller.scrollHeight).to.be.above(scroller.clientHeight * 10);
    const last = shownRows.at(-1)!;
    await waitUntil(() => scrolledTo(el, [last], scroller), "the last row drawn in view", { timeout: 10_000 });
    expect(shown(last)).to.equal(expected(all).at(-1));
    // Where a group ends and the next begins, the rows follow one another as they do inside a group.
    for (const k of [DIFF_GROUP, DIFF_GROUP * 20, DIFF_GROUP * 39]) {
      const [above, below] = [shownRows[k - 1]!, shownRows[k]!];
      await waitUntil(() => scrolledTo(el, [above, below], scroller), `rows ${k} and ${k + 1} drawn in view`, {
        timeout: 10_000,
      });
      const within = shownRows[k - 2]!;
      const [top, bottom] = [
        (row: HTMLElement) => row.getBoundingClientRect().top,
        (row: HTMLElement) => row.getBoundingClientRect().bottom,
      ];
      expect(top(above), `row ${k - 1} to row ${k}, in one group`).to.be.closeTo(bottom(within), 0.5);
      expect(top(below), `row ${k} to row ${k + 1}, from one group to the next`).to.be.closeTo(bottom(above), 0.5);
    }
  });

  it("draws a small diff in one update, its rows straight inside the diff, where a long diff's rows are", async () => {
    const all = lines(DIFF_AT_ONCE).map((line) => ({ ...line, kind: "context" as const }));
    // Side by side, so that both are in view.
    const host = await fixture<HTMLElement>(html`<div style="display: flex; gap: 8px; inline-size: 848px"></div>`);
    const small = card(all);
    const long = card([...all, { kind: "context", number: 999, text: "one row more" }]);
    for (const el of [small, long]) el.style.inlineSize = "420px";
    host.append(small, long);
    await Promise.all([small.updateComplete, long.updateComplete]);
    // Nothing is drawn after that update: no more rows, no marks (no line is modified).
    const changes: MutationRecord[] = [];
    const observer = new MutationObserver((records) => changes.push(...records));
    observer.observe(small.shadowRoot!, { subtree: true, childList: true, characterData: true, attributes: true });
    for (let i = 0; i < 3; i++) await nextFrame();
    await new Promise((resolve) => setTimeout(resolve));
    observer.disconnect();
    expect(changes, "changes after the first update").to.have.length(0);
    expect([...diff(small).children].map((child) => child.getAttribute("part"))).to.deep.equal(
      all.map(() => "diff-line diff-context"),
    );
    expect(rows(small).map(shown)).to.deep.equal(expected(all));
    // The long diff's rows sit in groups, each row where the small diff has it, cell by cell (those in view: a group
    // out of view is not laid out).
    expect(rows(long).slice(0, DIFF_AT_ONCE).map(shown)).to.deep.equal(expected(all));
    const inView = rows(small).filter((row) => row.getBoundingClientRect().bottom <= innerHeight).length;
    expect(inView, "rows in view").to.be.above(10);
    const boxes = (el: PiToolCard) =>
      rows(el)
        .slice(0, inView)
        .flatMap((row) => [row, ...row.children])
        .map((node) => {
          const box = node.getBoundingClientRect();
          const origin = diff(el).getBoundingClientRect();
          return [box.left - origin.left, box.top - origin.top, box.width, box.height].map(
            (n) => Math.round(n * 4) / 4,
          );
        });
    expect(boxes(long)).to.deep.equal(boxes(small));
  });
});
