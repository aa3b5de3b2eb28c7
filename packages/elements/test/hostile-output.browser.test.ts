/**
 * Hostile model and tool output (issue #33), as a model would stream it into the elements, in all three engines:
 * emphasis and link runs, brackets, deep nesting, long lines without spaces, a huge table, code that the
 * highlighter's grammars find costly, a long code streamed, an edit of thousands of unrelated lines; and texts
 * generated from hostile pieces. Each ends with all of its text there (formatted, or plain where a limit had it
 * so), nothing injected, no request leaving the page, no error, and a page that still answers a click.
 *
 * How long the page is busy meanwhile is not asserted here (a test does not race the machine): `pnpm bench hostile`
 * measures each case's longest main-thread task.
 */
import { expect, fixture, html } from "@open-wc/testing";
import { sendMouse } from "@web/test-runner-commands";
import fc from "fast-check";
import "../src/elements/code-block/define.js";
import type { PiCodeBlock } from "../src/elements/code-block/code-block.js";
import "../src/elements/markdown/define.js";
import type { PiMarkdown } from "../src/elements/markdown/markdown.js";
import "../src/elements/tool-card/define.js";
import type { PiToolCard } from "../src/elements/tool-card/tool-card.js";
import { editRun } from "./support/edit-run.js";
import { streamInto } from "./support/stream.js";
import { words } from "./support/words.js";

/** Every resource the page requested (an observer: the timeline's buffer holds only 250). */
const requested: string[] = [];
const resources = new PerformanceObserver((list) => requested.push(...list.getEntries().map((entry) => entry.name)));
resources.observe({ type: "resource", buffered: true });
const foreignRequests = () => {
  requested.push(...resources.takeRecords().map((entry) => entry.name));
  return requested.filter((name) => !name.startsWith(location.origin));
};
const errors: string[] = [];
window.addEventListener("error", (event) => errors.push(String(event.message)));
window.addEventListener("unhandledrejection", (event) => errors.push(String(event.reason)));

/** Every element in `root` and the shadow roots below it. */
function elementsIn(root: ParentNode): Element[] {
  return [...root.querySelectorAll("*")].flatMap((element) => [
    element,
    ...(element.shadowRoot ? elementsIn(element.shadowRoot) : []),
  ]);
}

/** Nothing a text could have put in the page: no active element, no handler, no link but http(s) and mailto. */
function expectNothingInjected(host: Element): void {
  const all = elementsIn(host.shadowRoot!);
  expect(
    all.filter((element) =>
      /^(script|iframe|object|embed|img|style|link|meta|base|form|svg|math)$/i.test(element.localName),
    ),
  ).to.deep.equal([]);
  expect(
    all.filter((element) => [...element.attributes].some((attribute) => /^on/i.test(attribute.name))),
  ).to.deep.equal([]);
  const hrefs = all.filter((element) => element.hasAttribute("href")).map((element) => element.getAttribute("href")!);
  expect(hrefs.filter((href) => !/^(https?:|mailto:)/i.test(href))).to.deep.equal([]);
  expect((window as { injected?: unknown }).injected).to.equal(undefined);
  expect(foreignRequests()).to.deep.equal([]);
  expect(errors).to.deep.equal([]);
}

/** The page still answers a person: a button beside the element takes a real click. */
async function expectAClickAnswered(): Promise<void> {
  const button = await fixture<HTMLButtonElement>(
    html`<button type="button" style="position: fixed; top: 8px; left: 8px; z-index: 1">Still here</button>`,
  );
  let clicked = false;
  button.addEventListener("click", () => {
    clicked = true;
  });
  const box = button.getBoundingClientRect();
  await sendMouse({ type: "click", position: [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)] });
  expect(clicked, "the click was answered").to.equal(true);
}

/** A pi-markdown that gets `text` in `updates` pieces, one a frame, as a model streams it; then the whole. */
async function streamMarkdown(text: string, updates: number): Promise<PiMarkdown> {
  const el = await fixture<PiMarkdown>(html`<pi-markdown></pi-markdown>`);
  await streamInto(el, "text", text, updates);
  return el;
}

/** The text a person sees in `root`, across the shadow roots below it (a code block's code is in its own). */
function deepText(root: Node): string {
  if (root instanceof Element && root.shadowRoot) return deepText(root.shadowRoot);
  if (root.nodeType === Node.TEXT_NODE) return (root as Text).data;
  return [...root.childNodes].map(deepText).join("");
}

/**
 * Every word of `text` shows. Markdown takes some characters as markup, not text: a link's destination, an ordered
 * list's numbers (drawn as markers, also a list's first in another's: `1. 1. x`), a character reference (shown as its character), a code fence's info string
 * (the code's language).
 */
function expectEveryWord(el: PiMarkdown, text: string): void {
  const shown = deepText(el);
  const missing = text
    .replace(/\]\([^)]*\)/g, "]")
    .replace(/&#\d+;/g, " ")
    .replace(/^( {0,3}(?:[>*+-] *)*)(`{3,}|~{3,}).*$/gm, " ")
    .replace(/^(?:[\s>*+-]*\d{1,9}[.)](?=\s|$))+/gm, " ")
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== "" && !shown.includes(word));
  expect([...new Set(missing)].slice(0, 10), "words of the text not shown").to.deep.equal([]);
}

const nested = (depth: number, marker: (i: number) => string) =>
  Array.from({ length: depth }, (_, i) => `${marker(i)}item ${i}`).join("\n");

describe("hostile model output, streamed into pi-markdown", () => {
  const cases: [string, string][] = [
    ["a run of _a", "_a".repeat(12_000)],
    ["[ then ]", `${"[".repeat(1_500)}${"]".repeat(1_500)} after`],
    ["globs *a*b", "*a*b".repeat(1_500)],
    ["snake_case without spaces", "a_b".repeat(7_000)],
    ["100 nested list items", nested(100, (i) => `${" ".repeat(i * 2)}- `)],
    ["200 nested quotes", `${"> ".repeat(200)}deep`],
    ["a 50,000-character line without a space", `start${"x".repeat(50_000)}end`],
    [
      "a table of 300 rows",
      `| a | b | c |\n|---|---|---|\n${Array.from({ length: 300 }, (_, i) => `| r${i} | *x${i}* | \`y${i}\` |`).join("\n")}`,
    ],
    ["link brackets nested 600 deep", `${"[a](".repeat(600)}x${")".repeat(600)}`],
    [
      "markup, scripts and links in the text",
      `<img src=x onerror="window.injected=1"> <script>window.injected=2</script> [x](javascript:window.injected=3) ![t](https://evil.example/p.png) <https://evil.example> \u202eevil\u202c`.repeat(
        50,
      ),
    ],
  ];
  for (const [name, text] of cases) {
    it(`${name}: all of it shows, nothing injected, the page answers`, async () => {
      const el = await streamMarkdown(text, 30);
      expectEveryWord(el, text);
      expectNothingInjected(el);
      await expectAClickAnswered();
    });
  }

  it("texts generated from hostile pieces: all of each shows, nothing injected", async () => {
    const piece = fc.constantFrom(
      "_a",
      "*",
      "**",
      "~~",
      "`",
      "```",
      "[",
      "]",
      "(",
      ")",
      "](javascript:x)",
      "![i](https://evil.example/i.png)",
      "<b onclick=x>",
      "<script>",
      "> ",
      "- ",
      "1. ",
      "| a |",
      "\n",
      "\n\n",
      "    ",
      "\\",
      "word",
      "\u202e",
      "\u0000",
      "&#106;",
    );
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { minLength: 1, maxLength: 400 }), async (pieces) => {
        const text = pieces.join("");
        const el = await streamMarkdown(text, 4);
        expectEveryWord(el, text);
        expectNothingInjected(el);
        el.remove();
      }),
      // A fixed seed: the same 25 texts in every run, so the suite is green or red by the code, not by the draw (a
      // random one found two gaps in this test's oracle, not in the element, in CI-like runs). Another seed explores.
      { numRuns: 25, seed: 20_261_206 },
    );
  });
});

describe("hostile code and tool output", () => {
  const costly: [string, string][] = [
    ["ini", `${"-".repeat(8_000)}\n`],
    ["scss", `${"-".repeat(8_000)}\n`],
    ["c", "a ".repeat(8_000)],
    ["cpp", "a::".repeat(5_000)],
    ["typescript", "a<".repeat(5_000)],
    ["csharp", "a.".repeat(8_000)],
    ["bash", "$(".repeat(5_000)],
  ];
  for (const [language, code] of costly) {
    it(`code costly to highlight as ${language}: all of it shows, coloured or plain`, async () => {
      const el = await fixture<PiCodeBlock>(html`<pi-code-block .language=${language} .code=${code}></pi-code-block>`);
      await el.updateComplete;
      expect(el.shadowRoot!.querySelector("code")!.textContent).to.equal(code);
      expectNothingInjected(el);
      await expectAClickAnswered();
    });
  }

  it("120 KB of TypeScript streamed: every character there, in chunks, the highlighted part coloured", async () => {
    const code = "const value: number = 1; // a line\n".repeat(3_430);
    // No time bound on a highlight (highlightMs: on the clock, not the processor): on a busy machine one highlight
    // stopped at 2 s leaves the block plain for the rest of the stream, by design (code-block-worker tests that), so
    // "coloured" would depend on the machine's speed. What this checks is the length bound and the chunks.
    const el = await fixture<PiCodeBlock>(
      html`<pi-code-block language="ts" .limits=${{ highlightMs: Number.POSITIVE_INFINITY }}></pi-code-block>`,
    );
    await streamInto(el, "code", code, 30);
    const shown = el.shadowRoot!.querySelector("code")!;
    expect(shown.textContent).to.equal(code);
    // Past 100,000 characters it is not highlighted again; what was coloured before stays.
    expect(shown.querySelectorAll(".chunk").length).to.equal(Math.ceil(3_430 / 100));
    expect(shown.querySelector(".hljs-keyword")).to.exist;
    expectNothingInjected(el);
    await expectAClickAnswered();
  });

  it("an edit of 1,200 unrelated lines: every row there, marks where jsdiff could, nothing injected", async () => {
    const rows: string[] = [];
    for (let i = 1; i <= 400; i++) rows.push(`-${i} ${words(60, i)}`, `+${i} ${words(60, i + 10_000)}`, ` ${i} ;`);
    const execution = editRun(rows.join("\n"));
    const el = await fixture<PiToolCard>(
      html`<pi-tool-card .call=${{ type: "toolCall", id: "e1", name: "edit", arguments: { path: "a.txt" } }}
        .execution=${execution} expanded></pi-tool-card>`,
    );
    await el.updateComplete;
    const texts = [...el.shadowRoot!.querySelectorAll('[part~="diff-text"]')].map((text) => text.textContent);
    expect(texts).to.deep.equal(rows.map((row) => row.replace(/^[-+ ]\d+ /, "")));
    expectNothingInjected(el);
    await expectAClickAnswered();
  });
});
