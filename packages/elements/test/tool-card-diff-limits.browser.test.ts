/**
 * pi-tool-card's word marks within bounds (edit-diff.ts): a modified line whose word diff would take seconds is shown
 * unmarked, the others of the same diff are marked, and a diff with more pairs than one task has time for is marked
 * over later tasks. Rendering and task timing are what engines differ on: all three engines.
 */
import { expect, fixture, html, waitUntil } from "@open-wc/testing";
import "../src/elements/tool-card/define.js";
import { TOOL_CARD_LIMITS } from "../src/elements/tool-card/registry.js";
import type { PiToolCard } from "../src/elements/tool-card/tool-card.js";
import { editRun } from "./support/edit-run.js";
import { FakeClock } from "./support/fake-clock.js";
import { words } from "./support/words.js";

const marks = (row: HTMLElement) => [...row.querySelectorAll('[part~="diff-mark"]')].map((m) => m.textContent);
const rows = (el: PiToolCard) => [...el.shadowRoot!.querySelectorAll<HTMLElement>('[part~="diff-line"]')];

/** An edit's run with pi's diff (`details.diff`): one line per row, `-`/`+`/` `, the line number, a space, the text. */
const editRunOf = (lines: string[]) => editRun(lines.join("\n"));

/** Waits for `condition` (a bound against a hang); a failure says what each row's marks were instead. */
async function waitForMarks(el: PiToolCard, condition: () => boolean, what: string): Promise<void> {
  try {
    await waitUntil(condition, what, { timeout: 20_000 });
  } catch (error) {
    throw new Error(`${(error as Error).message}; the rows' marks were ${JSON.stringify(rows(el).map(marks))}`);
  }
}

const mount = (execution: ReturnType<typeof editRun>) =>
  fixture<PiToolCard>(
    html`<pi-tool-card .call=${{ type: "toolCall", id: "e1", name: "edit", arguments: { path: "a.txt" } }}
      .execution=${execution} .clock=${new FakeClock()} expanded></pi-tool-card>`,
  );

describe("pi-tool-card's word marks, bounded", () => {
  it("leaves a pair of two unrelated long lines unmarked and marks the small edit beside it", async () => {
    const oldLong = words(1_400, 1);
    const newLong = words(1_400, 2);
    expect(oldLong.length + newLong.length).to.be.below(TOOL_CARD_LIMITS.wordDiffChars);
    const el = await mount(
      editRunOf([`-1 ${oldLong}`, `+1 ${newLong}`, " 2 between", "-3 const a = 1;", "+3 const a = 2;"]),
    );
    await waitForMarks(el, () => rows(el).some((row) => marks(row).length > 0), "the small edit marked");
    const [removedLong, addedLong, , removedSmall, addedSmall] = rows(el);
    expect(marks(removedSmall!)).to.deep.equal(["1"]);
    expect(marks(addedSmall!)).to.deep.equal(["2"]);
    // Its pair differs in far more than TOOL_CARD_LIMITS.wordDiffEdit words: whole lines, every word there, nothing marked.
    expect(marks(removedLong!)).to.deep.equal([]);
    expect(marks(addedLong!)).to.deep.equal([]);
    expect(removedLong!.querySelector('[part~="diff-text"]')!.textContent).to.equal(oldLong);
    expect(addedLong!.querySelector('[part~="diff-text"]')!.textContent).to.equal(newLong);
  });

  it("does not diff a pair past the size bound at all", async () => {
    const half = "x ".repeat(TOOL_CARD_LIMITS.wordDiffChars / 4 + 1);
    const el = await mount(editRunOf([`-1 ${half}a`, `+1 ${half}b`, " 2 between", "-3 one", "+3 two"]));
    await waitForMarks(el, () => rows(el).some((row) => marks(row).length > 0), "the small edit marked");
    expect(marks(rows(el)[0]!)).to.deep.equal([]);
  });

  it("takes a page's limits: fewer changed words, or a smaller size, leave a pair unmarked that the defaults mark", async () => {
    const run = editRunOf(["-1 let a = 1; let b = 2;", "+1 let a = 3; let b = 4;", " 2 between", "-3 one", "+3 two"]);
    const fewer = await fixture<PiToolCard>(
      html`<pi-tool-card .call=${{ type: "toolCall", id: "e1", name: "edit", arguments: { path: "a.txt" } }}
        .execution=${run} .clock=${new FakeClock()} expanded .limits=${{ wordDiffEdit: 2 }}></pi-tool-card>`,
    );
    await waitForMarks(fewer, () => marks(rows(fewer)[3]!).length > 0, "the one-word edit marked");
    // Two words changed, four edits (a removal and an insertion each): past an edit of 2, unmarked.
    expect(rows(fewer).map(marks)).to.deep.equal([[], [], [], ["one"], ["two"]]);
    const smaller = await fixture<PiToolCard>(
      html`<pi-tool-card .call=${{ type: "toolCall", id: "e1", name: "edit", arguments: { path: "a.txt" } }}
        .execution=${run} .clock=${new FakeClock()} expanded .limits=${{ wordDiffChars: 10 }}></pi-tool-card>`,
    );
    await waitForMarks(smaller, () => marks(rows(smaller)[3]!).length > 0, "the short edit marked");
    expect(rows(smaller).map(marks)[0]).to.deep.equal([]);
    // A longer time than a slice's still starts each pair (it may run past the slice: the page's choice).
    const longer = await fixture<PiToolCard>(
      html`<pi-tool-card .call=${{ type: "toolCall", id: "e1", name: "edit", arguments: { path: "a.txt" } }}
        .execution=${run} .clock=${new FakeClock()} expanded .limits=${{ wordDiffMs: 50 }}></pi-tool-card>`,
    );
    await waitForMarks(longer, () => marks(rows(longer)[0]!).length > 0, "the pair marked with 50 ms a pair");
    // The defaults mark the same pair (the marks a card with other limits made are its own).
    const whole = await mount(run);
    await waitForMarks(whole, () => marks(rows(whole)[0]!).length > 0, "the first pair marked");
    expect(rows(whole).map(marks)[0]).to.deep.equal(["1", "2"]);
  });

  it("marks a small edit that jsdiff gave up on while the page was paused, in a later task", async () => {
    // A paused page, as a busy machine or a long garbage collection makes one: the clock jsdiff times itself by
    // moves a second between any two readings, so its timeout ends the first try of a two-word pair.
    const realNow = Date.now;
    let readings = 0;
    Date.now = () => realNow() + ++readings * 1_000;
    let el: PiToolCard;
    try {
      el = await mount(editRunOf(["-1 paused one", "+1 paused two"]));
    } finally {
      Date.now = realNow;
    }
    expect(readings, "the first try ran while the page was paused").to.be.above(0);
    expect(rows(el).map(marks)).to.deep.equal([[], []]);
    await waitForMarks(el, () => rows(el).some((row) => marks(row).length > 0), "the paused edit marked later");
    expect(rows(el).map(marks)).to.deep.equal([["one"], ["two"]]);
  });

  it("marks every pair of a long diff, over as many tasks as it takes", async () => {
    const lines: string[] = [];
    for (let i = 1; i <= 400; i++) {
      const text = words(40, i);
      lines.push(`-${i} let value${i} = "${text}";`, `+${i} let value${i} = "${text} changed";`, ` ${i} ;`);
    }
    const el = await mount(editRunOf(lines));
    const pairs = () => rows(el).filter((row) => row.getAttribute("part")!.includes("diff-added"));
    await waitForMarks(el, () => pairs().every((row) => marks(row).length > 0), "every pair marked");
    expect(pairs()).to.have.length(400);
    expect(pairs().every((row) => marks(row).join("") === "changed")).to.equal(true);
  });
});
