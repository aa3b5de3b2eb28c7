/**
 * pi-tool-card on the recorded tool calls of both pi versions (test/fixtures/conversation/<version>/tools.jsonl, as
 * the core's conversation state reduces them): bash streamed and replaced, read, write, edit with pi's diff, a
 * failing read; the states from streaming arguments to done; pi's preview caps and the toggle; hostile output.
 */
import { expect, fixture, html, waitUntil } from "@open-wc/testing";
import type { ToolExecution } from "@pi-elements/core/conversation";
import { executeServerCommand, sendKeys, sendMouse } from "@web/test-runner-commands";
import { emulate, engine } from "../../../test/support/engine.js";
import { MAX_STYLED_RUNS } from "../src/ansi/render-ansi.js";
import {
  languageForPath,
  MAX_EXPANDED_LINES,
  type PiToolCard,
  registerToolRenderer,
  type ToolCallBlock,
} from "../src/elements/tool-card/define.js";
import { editRun } from "./support/edit-run.js";
import { FakeClock } from "./support/fake-clock.js";
import { type RecordedCall, recordedCalls, VERSIONS } from "./support/tool-calls.js";

const E = "\u001b";

const part = (el: PiToolCard, name: string) => el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
const parts = (el: PiToolCard, name: string) => [...el.shadowRoot!.querySelectorAll<HTMLElement>(`[part~="${name}"]`)];
const base = (el: PiToolCard) => part(el, "base")!;
const label = (el: PiToolCard) => base(el).getAttribute("aria-label");
const outputText = (el: PiToolCard) => part(el, "output")?.textContent ?? "";
const codeText = (el: PiToolCard) => part(el, "code")?.textContent ?? "";
const toggle = (el: PiToolCard) => part(el, "toggle-button") as HTMLButtonElement | null;

async function card(
  call: ToolCallBlock | undefined,
  execution?: ToolExecution,
  attrs: { expanded?: boolean; clock?: FakeClock } = {},
): Promise<PiToolCard> {
  return fixture<PiToolCard>(html`<pi-tool-card
    .call=${call}
    .execution=${execution}
    .clock=${attrs.clock ?? new FakeClock()}
    ?expanded=${attrs.expanded ?? false}
  ></pi-tool-card>`);
}

function run(name: string, output: string, extra: Partial<ToolExecution> = {}): ToolExecution {
  return {
    toolCallId: "c1",
    toolName: name,
    args: {},
    status: "done",
    partialResult: undefined,
    result: { content: [{ type: "text", text: output }] },
    isError: false,
    durationMs: undefined,
    parentToolCallId: undefined,
    startedAt: undefined,
    endedAt: undefined,
    ...extra,
  };
}

const numbered = (count: number, prefix = "line") => Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}`);
const byName = (calls: RecordedCall[], name: string, index = 0) => calls.filter((call) => call.name === name)[index]!;

for (const version of VERSIONS) {
  describe(`pi-tool-card on pi ${version}'s recorded tool calls`, () => {
    let calls: RecordedCall[];
    before(async () => {
      calls = await recordedCalls(version);
    });

    it("bash: the command while it streams, half written, then running, each update replacing the output", async () => {
      const bash = byName(calls, "bash");
      const clock = new FakeClock();
      // The arguments as they streamed: a half-written command shows as it is, named in the card's label.
      const partial = bash.streaming.find(
        (call) => !call.complete && typeof call.arguments.command === "string" && call.arguments.command.length > 3,
      )!;
      expect(partial, "a partial command was recorded").to.exist;
      const command = partial.arguments.command as string;
      expect(command.length).to.be.below((bash.committed.arguments as { command: string }).command.length);
      const el = await card(partial, undefined, { clock });
      expect(base(el).dataset.status).to.equal("streaming");
      expect(label(el)).to.equal(`bash: ${command}`);
      expect(part(el, "subject")?.textContent).to.equal(command);

      el.call = bash.committed;
      await el.updateComplete;
      expect(base(el).dataset.status).to.equal("pending");
      expect(label(el)).to.equal("bash: for i in 1 2 3; do echo line $i; sleep 0.2; done");

      // Every execution step as recorded: the first update is empty, each later one the whole output so far.
      const seen: string[] = [];
      for (const execution of bash.executions) {
        el.execution = execution;
        await el.updateComplete;
        seen.push(outputText(el));
        if (execution.status === "running") {
          expect(base(el).dataset.status).to.equal("running");
          expect(base(el).getAttribute("aria-busy")).to.equal("true");
          clock.advance(200);
        }
      }
      expect(seen).to.deep.equal([
        "",
        "",
        "line 1",
        "line 1\nline 2",
        "line 1\nline 2\nline 3",
        "line 1\nline 2\nline 3",
      ]);
      expect(base(el).dataset.status).to.equal("done");
      expect(base(el).getAttribute("aria-busy")).to.equal("false");
      expect(part(el, "exit-code")?.textContent).to.equal("exit 0");
      // 1.6.0 reports the duration (622 ms); 0.73.1 does not, and the store timed what it saw (5 running steps × 200 ms).
      expect(part(el, "time")?.textContent).to.equal(version === "1.6.0" ? "Took 622 ms" : "Took 1.0 sec");
      expect(toggle(el)).to.equal(null);
      await expect(el).to.be.accessible();
    });

    it("read: the path, and the file's content as code of its language", async () => {
      const read = byName(calls, "read");
      const el = await card(read.committed, read.executions.at(-1));
      expect(label(el)).to.equal("read: notes.txt");
      expect(codeText(el)).to.equal("alpha\nbeta\ngamma");
      expect(part(el, "code")?.dataset.language).to.equal("plaintext");
      // 1.6.0 reports the duration; on 0.73.1 the store timed the run it saw (start to end, one step of 200 ms).
      expect(part(el, "time")?.textContent).to.equal(version === "1.6.0" ? "Took 5 ms" : "Took 200 ms");
    });

    it("write: the path and the content written (from the arguments), highlighted by the file's type", async () => {
      const write = byName(calls, "write");
      const el = await card(write.committed, write.executions.at(-1));
      expect(label(el)).to.equal("write: out/todo.md");
      expect(codeText(el)).to.equal("# Todo\n\n- ship it");
      expect(part(el, "code")?.dataset.language).to.equal("markdown");
      expect(base(el).dataset.status).to.equal("done");
    });

    it("write: the content shows as it streams, each partial argument replacing the last", async () => {
      const write = byName(calls, "write");
      const partials = write.streaming.filter((call) => !call.complete && typeof call.arguments.content === "string");
      expect(partials.length, "partial contents were recorded").to.be.greaterThan(0);
      const el = await card(partials[0]);
      for (const partial of partials) {
        el.call = partial;
        await el.updateComplete;
        expect(base(el).dataset.status).to.equal("streaming");
        expect(codeText(el)).to.equal((partial.arguments.content as string).replace(/\n+$/, ""));
      }
    });

    it("edit: pi's line-numbered diff from details.diff, the changed words marked", async () => {
      const edit = byName(calls, "edit");
      // Before it ran: the edit as the model wrote it.
      const el = await card(edit.committed);
      expect(parts(el, "diff-line").map((row) => row.getAttribute("part"))).to.deep.equal([
        "diff-line diff-removed",
        "diff-line diff-added",
      ]);
      el.execution = edit.executions.at(-1);
      await el.updateComplete;
      expect(label(el)).to.equal("edit: src/greet.ts");
      const rows = () =>
        parts(el, "diff-line").map((row) => [
          row.getAttribute("part")!.replace("diff-line ", ""),
          row.querySelector('[part~="diff-number"]')!.textContent,
          row.querySelector('[part~="diff-text"]')!.textContent,
        ]);
      expect(rows()).to.deep.equal([
        ["diff-context", "1", "export function greet(name: string): string {"],
        ["diff-removed", "2", '  return "Hello, " + name;'],
        ["diff-added", "2", '  return "Hi, " + name + "!";'],
        ["diff-context", "3", "}"],
      ]);
      // jsdiff loads on first use; then the words that changed are marked, the indentation is not.
      await waitUntil(() => parts(el, "diff-mark").length > 0, "the changed words are marked", { timeout: 10_000 });
      const marks = (kind: string) =>
        [...el.shadowRoot!.querySelectorAll(`[part~="diff-${kind}"] [part~="diff-mark"]`)].map((m) => m.textContent);
      expect(marks("removed").join("")).to.include("Hello");
      expect(marks("added").join("")).to.include("Hi");
      expect(marks("added").join("")).to.include('"!"');
      // As pi does, the first change of each line does not mark its leading whitespace.
      expect(marks("removed")[0]).to.equal("Hello");
      expect(marks("added")[0]).to.equal("Hi");
      expect(rows()[1]![2]).to.equal('  return "Hello, " + name;');
      await expect(el).to.be.accessible();
    });

    it("a failing read: error state, the error text, the path in its name", async () => {
      const read = byName(calls, "read", 1);
      const el = await card(read.committed, read.executions.at(-1));
      expect(base(el).dataset.status).to.equal("error");
      expect(label(el)).to.equal("read: missing.txt");
      expect(part(el, "error")?.textContent).to.match(/^ENOENT: no such file or directory, access '.*missing\.txt'$/);
      expect(part(el, "status")?.textContent).to.equal("failed");
      await expect(el).to.be.accessible();
    });
  });
}

describe("pi-tool-card: pi's preview caps and the toggle", () => {
  const cases = [
    { name: "bash", args: { command: "seq 12" }, lines: 12, shown: 5, from: "end", hint: "… 7 earlier lines" },
    { name: "grep", args: { pattern: "x", path: "src" }, lines: 30, shown: 15, from: "start", hint: "… 15 more lines" },
    { name: "find", args: { pattern: "*.ts" }, lines: 30, shown: 20, from: "start", hint: "… 10 more lines" },
    { name: "ls", args: { path: "." }, lines: 21, shown: 20, from: "start", hint: "… 1 more lines" },
  ] as const;
  for (const c of cases) {
    it(`${c.name}: ${c.from === "end" ? "the last" : "the first"} ${c.shown} lines, the rest behind "${c.hint}"`, async () => {
      const lines = numbered(c.lines);
      const el = await card(
        { type: "toolCall", id: "c1", name: c.name, arguments: c.args },
        run(c.name, lines.join("\n")),
      );
      const shown = c.from === "end" ? lines.slice(-c.shown) : lines.slice(0, c.shown);
      expect(outputText(el)).to.equal(shown.join("\n"));
      expect(toggle(el)?.textContent?.trim()).to.equal(c.hint);
      expect(toggle(el)?.getAttribute("aria-expanded")).to.equal("false");
    });
  }

  it("read and write: the first 10 lines of the file; write says the total", async () => {
    const text = numbered(25).join("\n");
    const read = await card({ name: "read", arguments: { path: "a.ts" } }, run("read", text));
    expect(codeText(read)).to.equal(numbered(10).join("\n"));
    expect(toggle(read)?.textContent?.trim()).to.equal("… 15 more lines");
    const write = await card({ name: "write", arguments: { path: "a.ts", content: text } }, run("write", "ok"));
    expect(codeText(write)).to.equal(numbered(10).join("\n"));
    expect(toggle(write)?.textContent?.trim()).to.equal("… 15 more lines, 25 total");
  });

  it("names the subject of every pi tool in the card's label", async () => {
    const subjects: [string, Record<string, unknown>, string][] = [
      ["bash", { command: "ls -la" }, "bash: ls -la"],
      ["read", { path: "src/a.ts", offset: 5, limit: 10 }, "read: src/a.ts:5-14"],
      ["grep", { pattern: "TODO", path: "src", glob: "*.ts" }, "grep: /TODO/ in src (*.ts)"],
      ["find", { pattern: "*.md" }, "find: *.md in ."],
      ["ls", {}, "ls: ."],
      ["my_tool", { query: "weather in Paris", n: 3 }, "my_tool: weather in Paris"],
      ["bare", {}, "bare"],
    ];
    for (const [name, args, expected] of subjects) {
      const el = await card({ name, arguments: args });
      expect(label(el), name).to.equal(expected);
    }
  });

  it("expands and collapses with the keyboard (Enter, Space), focus staying on the toggle", async () => {
    const el = await card({ name: "bash", arguments: { command: "seq 12" } }, run("bash", numbered(12).join("\n")));
    const events: boolean[] = [];
    el.addEventListener("pi-tool-card-toggle", (event) => events.push(event.detail.expanded));
    toggle(el)!.focus();
    await sendKeys({ press: "Enter" });
    await el.updateComplete;
    expect(el.expanded).to.equal(true);
    expect(el.hasAttribute("expanded")).to.equal(true);
    expect(outputText(el)).to.equal(numbered(12).join("\n"));
    expect(toggle(el)?.getAttribute("aria-expanded")).to.equal("true");
    expect(toggle(el)?.textContent?.trim()).to.equal("Show less");
    expect(el.shadowRoot!.activeElement).to.equal(toggle(el));
    await sendKeys({ press: " " });
    await el.updateComplete;
    expect(el.expanded).to.equal(false);
    expect(outputText(el)).to.equal(numbered(12).slice(-5).join("\n"));
    expect(events).to.deep.equal([true, false]);
    // The toggle controls the output it hides.
    expect(el.shadowRoot!.getElementById(toggle(el)!.getAttribute("aria-controls")!)).to.equal(part(el, "output"));
  });

  it("expands and collapses with the mouse", async () => {
    const el = await card({ name: "grep", arguments: { pattern: "x" } }, run("grep", numbered(40).join("\n")));
    const click = async () => {
      toggle(el)!.scrollIntoView({ block: "center" });
      const box = toggle(el)!.getBoundingClientRect();
      await sendMouse({
        type: "click",
        position: [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)],
      });
      await el.updateComplete;
    };
    await click();
    expect(el.expanded).to.equal(true);
    expect(outputText(el).split("\n")).to.have.length(40);
    await click();
    expect(el.expanded).to.equal(false);
    expect(outputText(el).split("\n")).to.have.length(15);
  });

  it("follows an expanded property set from outside (the transcript's expand all)", async () => {
    const el = await card({ name: "bash", arguments: { command: "x" } }, run("bash", numbered(9).join("\n")), {
      expanded: true,
    });
    expect(outputText(el).split("\n")).to.have.length(9);
    el.expanded = false;
    await el.updateComplete;
    expect(outputText(el).split("\n")).to.have.length(5);
  });
});

describe("pi-tool-card: states and time", () => {
  it("counts the elapsed time while running on one shared timer, and says how long it took", async () => {
    const clock = new FakeClock();
    const running = run("bash", "", {
      status: "running",
      result: undefined,
      partialResult: { content: [] },
      startedAt: clock.now(),
    });
    const els = await Promise.all(
      [1, 2, 3].map(() => card({ name: "bash", arguments: { command: "sleep 9" } }, running, { clock })),
    );
    const times = () => els.map((el) => part(el, "time")?.textContent);
    // No "Elapsed 0 sec" in its first second: the card says it runs; a quick run then says "Took 12 ms".
    expect(times()).to.deep.equal([undefined, undefined, undefined]);
    // Three running cards, one timer.
    expect(clock.pending).to.equal(1);
    clock.advance(1000);
    await Promise.all(els.map((el) => el.updateComplete));
    expect(times()).to.deep.equal(["Elapsed 1 sec", "Elapsed 1 sec", "Elapsed 1 sec"]);
    clock.advance(2000);
    await Promise.all(els.map((el) => el.updateComplete));
    expect(times()).to.deep.equal(["Elapsed 3 sec", "Elapsed 3 sec", "Elapsed 3 sec"]);
    for (const el of els) {
      el.execution = {
        ...running,
        status: "error",
        result: { content: [{ type: "text", text: "Command aborted" }] },
        endedAt: clock.now(),
      };
    }
    await Promise.all(els.map((el) => el.updateComplete));
    clock.advance(500);
    await Promise.all(els.map((el) => el.updateComplete));
    expect(times()).to.deep.equal(["Took 3.0 sec", "Took 3.0 sec", "Took 3.0 sec"]);
    expect(clock.pending).to.equal(0);
    // An aborted run has no exit code; a failing one shows pi's.
    expect(part(els[0]!, "exit-code")).to.equal(null);
    els[0]!.execution = run("bash", "boom\n\nCommand exited with code 2", {
      status: "error",
      isError: true,
      durationMs: 12_400,
    });
    await els[0]!.updateComplete;
    expect(part(els[0]!, "exit-code")?.textContent).to.equal("exit 2");
    expect(part(els[0]!, "time")?.textContent).to.equal("Took 12 sec");
  });

  it("measures from the store's start time: a card made later, or made again, does not start over", async () => {
    const clock = new FakeClock();
    const running = run("bash", "", { status: "running", result: undefined, startedAt: clock.now() });
    const first = await card({ name: "bash", arguments: { command: "sleep 9" } }, running, { clock });
    clock.advance(5000);
    await first.updateComplete;
    const second = await card({ name: "bash", arguments: { command: "sleep 9" } }, running, { clock });
    expect([part(first, "time")?.textContent, part(second, "time")?.textContent]).to.deep.equal([
      "Elapsed 5 sec",
      "Elapsed 5 sec",
    ]);
    // Known only from a history: no start time, so no time at all rather than one counted from now.
    const fromHistory = await card({ name: "bash", arguments: {} }, run("bash", "ok"), { clock });
    expect(part(fromHistory, "time")).to.equal(null);
  });

  it("stops counting when removed from the page", async () => {
    const clock = new FakeClock();
    const running = run("bash", "", { status: "running", result: undefined });
    const el = await card({ name: "bash", arguments: { command: "x" } }, running, { clock });
    expect(clock.pending).to.equal(1);
    el.remove();
    expect(clock.pending).to.equal(0);
  });

  it("speaks the card's language: Japanese and Simplified Chinese", async () => {
    for (const [lang, status, hint] of [
      ["ja", "実行中", "… 前の 7 行"],
      ["zh-CN", "运行中", "… 前面 7 行"],
    ] as const) {
      const wrapper = await fixture<HTMLElement>(html`<div lang=${lang}>
        <pi-tool-card
          .call=${{ name: "bash", arguments: { command: "seq 12" } }}
          .execution=${run("bash", numbered(12).join("\n"), { status: "running", result: undefined, partialResult: { content: [{ type: "text", text: numbered(12).join("\n") }] } })}
          .clock=${new FakeClock()}
        ></pi-tool-card>
      </div>`);
      const el = wrapper.querySelector("pi-tool-card")!;
      await el.updateComplete;
      expect(part(el, "status")?.textContent).to.equal(status);
      expect(toggle(el)?.textContent?.trim()).to.equal(hint);
    }
  });
});

describe("pi-tool-card: a long output in chunks", () => {
  const chunks = (el: PiToolCard) => [...part(el, "output")!.querySelectorAll<HTMLElement>(":scope > .chunk")];
  const streaming = (text: string) =>
    run("bash", text, { status: "running", result: undefined, partialResult: { content: [{ type: "text", text }] } });

  it("draws 2,000 lines as 20 chunks of 100, as tall as their lines once each was in view; 200 lines as one text", async () => {
    await document.fonts.ready;
    const short = await card({ name: "bash", arguments: {} }, run("bash", numbered(200).join("\n")), {
      expanded: true,
    });
    expect(chunks(short)).to.have.length(0);
    const el = await card({ name: "bash", arguments: {} }, run("bash", numbered(5_000).join("\n")), { expanded: true });
    const all = chunks(el);
    expect(all).to.have.length(20);
    // Lines 3,001-5,000, cut where the whole output's line numbers are multiples of 100.
    expect(all.map((chunk) => chunk.textContent!.split("\n")[0])).to.deep.equal(
      Array.from({ length: 20 }, (_, k) => `line ${3_001 + k * 100}`),
    );
    expect(outputText(el)).to.equal(numbered(5_000).slice(-2_000).join("\n"));
    // The engine's line pitch, from the same lines as one text (WebKit rounds a 19.3 px line height to 19).
    const pitch = part(short, "output")!.getBoundingClientRect().height / 200;
    // Each chunk laid out in turn (brought into view), as a reader scrolling through the output has them.
    const heights: number[] = [];
    for (const chunk of all) {
      chunk.scrollIntoView({ block: "nearest" });
      // The rendering update after the scroll finds the chunk in view; the next frame's callbacks see it laid out.
      for (let frame = 0; frame < 2; frame++) await new Promise((resolve) => requestAnimationFrame(resolve));
      heights.push(chunk.getBoundingClientRect().height);
    }
    // Each line one line high: no chunk keeps the room it was given before it was laid out, no gap at a cut.
    expect(heights.map((height) => Math.round(height / pitch))).to.deep.equal(all.map(() => 100));
    expect(Math.round(part(el, "output")!.getBoundingClientRect().height / pitch)).to.equal(2_000);
  });

  it("keeps a colour across a cut, and its chunks' nodes while the output grows and its window slides", async () => {
    const text = (count: number) =>
      `${numbered(98).join("\n")}\n${E}[31mred 99\nred 100\nred 101${E}[0m\n${numbered(count).slice(101).join("\n")}`;
    const el = await card({ name: "bash", arguments: {} }, streaming(text(1_000)), { expanded: true });
    const red = [...part(el, "output")!.querySelectorAll<HTMLElement>(".chunk > span")];
    expect(red.map((span) => [span.parentElement === chunks(el)[0] ? 0 : 1, span.textContent])).to.deep.equal([
      [0, "red 99\nred 100\n"],
      [1, "red 101"],
    ]);
    expect(new Set(red.map((span) => getComputedStyle(span).color)).size).to.equal(1);
    // Lines 1-2,100, then 1-2,250: the window starts at line 101, then 251; the chunks of lines 301-2,100 are kept.
    el.execution = streaming(text(2_100));
    await el.updateComplete;
    const before = chunks(el);
    const middle = before.find((chunk) => chunk.textContent!.startsWith("line 1001\n"))!;
    const textNode = middle.querySelector("span")?.firstChild ?? [...middle.childNodes].find((n) => n.nodeType === 3)!;
    el.execution = streaming(text(2_250));
    await el.updateComplete;
    const after = chunks(el);
    expect(after[0]!.textContent!.startsWith("line 251\n")).to.equal(true);
    expect(after.find((chunk) => chunk.textContent!.startsWith("line 1001\n"))).to.equal(middle);
    expect(textNode.isConnected).to.equal(true);
    expect(outputText(el)).to.equal(
      text(2_250).split("\n").slice(250).join("\n").replaceAll(`${E}[31m`, "").replaceAll(`${E}[0m`, ""),
    );
  });
});

describe("pi-tool-card: hostile output", () => {
  it("a 100,000-line output renders its last 5 lines; expanded, at most 2,000 and how many it leaves out", async () => {
    const text = numbered(100_000).join("\n");
    const el = await card({ name: "bash", arguments: { command: "seq 100000" } }, run("bash", text));
    expect(outputText(el)).to.equal(numbered(100_000).slice(-5).join("\n"));
    expect(toggle(el)?.textContent?.trim()).to.equal("… 99995 earlier lines");
    toggle(el)!.click();
    await el.updateComplete;
    const lines = outputText(el).split("\n");
    expect(lines).to.have.length(MAX_EXPANDED_LINES);
    expect(lines.at(-1)).to.equal("line 100000");
    expect(part(el, "note")?.textContent).to.equal("98000 lines not shown");
  });

  it("an edit of a 9 KB line wraps it in the text's column, inside the card, beside the numbers", async () => {
    const long = Array.from({ length: 1_400 }, (_, i) => `w${(i * 7_919) % 9_973}`).join(" ");
    const el = await fixture<PiToolCard>(html`<pi-tool-card
      style="inline-size: 400px"
      expanded
      .call=${{ name: "edit", arguments: { path: "a.txt" } }}
      .execution=${editRun(` 9 before\n-10 ${long}\n+10 ${long}!\n 11 after`)}
    ></pi-tool-card>`);
    const texts = parts(el, "diff-text");
    expect(texts.map((text) => text.textContent!.length)).to.deep.equal([6, long.length, long.length + 1, 5]);
    const card = el.getBoundingClientRect();
    const lineHeight = Number.parseFloat(getComputedStyle(texts[0]!).lineHeight);
    for (const [i, text] of texts.entries()) {
      const box = text.getBoundingClientRect();
      const number = parts(el, "diff-number")[i]!.getBoundingClientRect();
      // Every text starts at the same place, after its number, and ends inside the card.
      expect(box.left, `row ${i}'s text`).to.be.closeTo(texts[0]!.getBoundingClientRect().left, 0.5);
      expect(box.left, `row ${i}'s text`).to.be.at.least(number.right);
      expect(box.right, `row ${i}'s text`).to.be.at.most(card.right);
    }
    // 9 KB in a column of some 40 characters: hundreds of lines.
    expect(texts[1]!.getBoundingClientRect().height / lineHeight).to.be.above(100);
    expect(el.shadowRoot!.querySelector('[part~="diff"]')!.scrollWidth).to.be.at.most(
      el.shadowRoot!.querySelector<HTMLElement>('[part~="diff"]')!.clientWidth,
    );
  });

  it("a single huge line is cut to 100,000 characters and says how many it cut", async () => {
    const el = await card({ name: "ls", arguments: {} }, run("ls", "x".repeat(300_000)));
    expect(outputText(el).length).to.equal(100_000);
    expect(part(el, "note")?.textContent).to.equal("200000 characters not shown");
  });

  it("markup in output, arguments and paths is text; an ANSI bomb stays bounded and leaks no escapes", async () => {
    const markup = `<img src=x onerror="window.hit=1"><script>window.hit=1</script>`;
    const bomb = `${Array.from({ length: 100_000 }, (_, i) => `${E}[3${i % 8}m${i % 10}`).join("")}${E}[0m`;
    const el = await card(
      { name: "bash", arguments: { command: markup } },
      run("bash", `${bomb}\n${E}]8;;javascript:alert(1)${E}\\link${E}]8;;${E}\\\n${markup}`),
    );
    expect(label(el)).to.equal(`bash: ${markup}`);
    expect(part(el, "subject")?.textContent).to.equal(markup);
    const output = part(el, "output")!;
    expect(output.textContent).to.include(markup);
    expect(output.textContent).not.to.include(E);
    expect(output.querySelectorAll("span").length).to.be.at.most(MAX_STYLED_RUNS);
    expect(output.querySelector("a")).to.equal(null);
    expect(el.shadowRoot!.querySelector("img, script")).to.equal(null);
    const generic = await card({ name: "x", arguments: { html: markup } }, run("x", markup));
    expect(generic.shadowRoot!.querySelector("img, script")).to.equal(null);
    expect((window as { hit?: number }).hit).to.equal(undefined);
  });

  it("renders ANSI colours in bash output", async () => {
    const el = await card(
      { name: "bash", arguments: { command: "ls --color" } },
      run("bash", `${E}[31mred${E}[0m plain`),
    );
    const span = part(el, "output")!.querySelector("span")!;
    expect(span.textContent).to.equal("red");
    expect(span.style.color).to.equal("var(--_ansi-1)");
  });

  it("gives junk a defined outcome: no call, odd arguments, a result that is not one", async () => {
    const empty = await card(undefined);
    expect(label(empty)).to.equal("");
    const odd = await card(
      { name: "bash", arguments: "not an object" as unknown as object },
      run("bash", "", { result: 42 }),
    );
    expect(label(odd)).to.equal("bash");
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const generic = await card({ name: "x", arguments: cyclic }, run("x", "ok"));
    expect(parts(generic, "output").map((o) => o.textContent)).to.deep.equal(["ok"]);
  });
});

describe("pi-tool-card: images in a result", () => {
  // A 1×1 PNG.
  const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

  it("shows a read image from the result itself; other image types and bad data stay a placeholder", async () => {
    const el = await card(
      { name: "read", arguments: { path: "logo.png" } },
      run("read", "", {
        result: {
          content: [
            { type: "text", text: "Read image file [image/png]" },
            { type: "image", mimeType: "image/png", data: PNG },
            { type: "image", mimeType: "image/svg+xml", data: "PHN2Zz4=" },
            { type: "image", mimeType: "image/png", data: 'x" onerror="alert(1)' },
          ],
        },
      }),
    );
    const images = [...el.shadowRoot!.querySelectorAll<HTMLImageElement>('[part~="image"]')];
    expect(images.map((image) => image.getAttribute("src"))).to.deep.equal([`data:image/png;base64,${PNG}`]);
    expect(images[0]!.alt).to.equal("Image (image/png)");
    await waitUntil(() => images[0]!.complete && images[0]!.naturalWidth === 1, "the image decoded", { timeout: 5000 });
    expect(codeText(el)).to.equal("Read image file [image/png]\n[image/svg+xml image]\n[image/png image]");
    await expect(el).to.be.accessible();
  });
});

describe("pi-tool-card: the registry and the generic card", () => {
  it("a page's renderer wins over the built-in one, and removing it brings the built-in back", async () => {
    const el = await card({ name: "bash", arguments: { command: "ls" } }, run("bash", "a\nb"));
    expect(outputText(el)).to.equal("a\nb");
    const seen: string[] = [];
    const unregister = registerToolRenderer(
      "bash",
      (call, execution, context) => {
        seen.push(`${call.name}:${execution?.status}:${context.expanded}`);
        return html`<p class="mine">${context.text.toUpperCase()}</p>`;
      },
      { subject: (args) => `my ${String(args.command)}` },
    );
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector(".mine")?.textContent).to.equal("A\nB");
    expect(label(el)).to.equal("bash: my ls");
    expect(seen).to.deep.equal(["bash:done:false"]);
    unregister();
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector(".mine")).to.equal(null);
    expect(outputText(el)).to.equal("a\nb");
  });

  it("an extension's tool gets its page renderer; one that throws falls back to the generic card", async () => {
    const off = [
      registerToolRenderer("weather", (_call, _execution, context) =>
        context.output(context.text, { lines: 1, from: "start" }),
      ),
      registerToolRenderer("broken", () => {
        throw new Error("bug");
      }),
    ];
    try {
      const weather = await card({ name: "weather", arguments: { city: "Paris" } }, run("weather", "sunny\nwarm"));
      expect(outputText(weather)).to.equal("sunny");
      expect(toggle(weather)?.textContent?.trim()).to.equal("… 1 more lines");
      const broken = await card({ name: "broken", arguments: { a: 1 } }, run("broken", "result"));
      expect(parts(broken, "section-label").map((p) => p.textContent)).to.deep.equal(["Arguments", "Result"]);
    } finally {
      for (const unregister of off) unregister();
    }
  });

  it("the generic card shows the arguments as JSON and the result", async () => {
    const el = await card({ name: "my_tool", arguments: { query: "q", n: 3 } }, run("my_tool", "the answer"));
    expect(parts(el, "section-label").map((p) => p.textContent)).to.deep.equal(["Arguments", "Result"]);
    expect(codeText(el)).to.equal('{\n  "query": "q",\n  "n": 3\n}');
    expect(outputText(el)).to.equal("the answer");
  });
});

describe("languageForPath", () => {
  it("maps file names to highlight.js languages", () => {
    expect(languageForPath("src/greet.ts")).to.equal("typescript");
    expect(languageForPath("a/b/c.PY")).to.equal("python");
    expect(languageForPath("C:\\x\\y.rs")).to.equal("rust");
    expect(languageForPath("Dockerfile")).to.equal("dockerfile");
    expect(languageForPath("README.md")).to.equal("markdown");
    expect(languageForPath("notes")).to.equal(undefined);
    expect(languageForPath("x.unknown")).to.equal(undefined);
    expect(languageForPath(".env")).to.equal(undefined);
    expect(languageForPath(42)).to.equal(undefined);
  });
});

describe("pi-tool-card: RTL, themes, screenshots", () => {
  it("in a right-to-left page: the header runs from the right, output and code stay left to right", async () => {
    const wrapper = await fixture<HTMLElement>(html`<div dir="rtl" lang="ar" style="inline-size: 600px">
      <pi-tool-card
        .call=${{ name: "bash", arguments: { command: "ls" } }}
        .execution=${run("bash", numbered(8).join("\n"), { durationMs: 1200 })}
      ></pi-tool-card>
    </div>`);
    const el = wrapper.querySelector("pi-tool-card")!;
    await el.updateComplete;
    expect(getComputedStyle(base(el)).direction).to.equal("rtl");
    expect(getComputedStyle(part(el, "output")!).direction).to.equal("ltr");
    const name = part(el, "name")!.getBoundingClientRect();
    const time = part(el, "time")!.getBoundingClientRect();
    expect(time.right).to.be.below(name.left);
    await expect(el).to.be.accessible();
  });

  for (const theme of ["light", "dark"] as const) {
    it(`passes axe in the ${theme} theme in every state, and takes a screenshot`, async () => {
      const calls = await recordedCalls("1.6.0");
      const bash = byName(calls, "bash");
      const wrapper = await fixture<HTMLElement>(html`<div
        id="shot"
        style="display: grid; gap: 8px; padding: 8px; inline-size: 640px; background: ${theme === "light" ? "#fff" : "#1e1e24"}"
      >
        <pi-tool-card theme=${theme} .call=${bash.streaming.at(-2)}></pi-tool-card>
        <pi-tool-card theme=${theme} .call=${bash.committed}></pi-tool-card>
        <pi-tool-card theme=${theme} .call=${bash.committed} .execution=${bash.executions[3]}></pi-tool-card>
        ${calls.map(
          (call) =>
            html`<pi-tool-card theme=${theme} .call=${call.committed} .execution=${call.executions.at(-1)}></pi-tool-card>`,
        )}
        <pi-tool-card
          theme=${theme}
          .call=${{ name: "bash", arguments: { command: "npm test" } }}
          .execution=${run("bash", `${numbered(9).join("\n")}\n${E}[31mFAIL${E}[0m x.test.ts\n\nCommand exited with code 1`, { status: "error", isError: true, durationMs: 3400 })}
        ></pi-tool-card>
        <pi-tool-card
          theme=${theme}
          .call=${{ name: "grep", arguments: { pattern: "TODO", path: "src" } }}
          .execution=${run("grep", numbered(20, "src/a.ts:1: TODO").join("\n"), { durationMs: 40 })}
        ></pi-tool-card>
        <pi-tool-card
          theme=${theme}
          .call=${{ name: "my_tool", arguments: { query: "weather", days: 3 } }}
          .execution=${run("my_tool", "sunny", { durationMs: 250 })}
        ></pi-tool-card>
      </div>`);
      const cards = [...wrapper.querySelectorAll("pi-tool-card")];
      await Promise.all(cards.map((el) => el.updateComplete));
      await waitUntil(() => cards.some((el) => el.shadowRoot!.querySelector('[part~="diff-mark"]')), "word marks", {
        timeout: 10_000,
      });
      await expect(wrapper).to.be.accessible();
      await executeServerCommand("screenshot", { name: `tool-card-${theme}`, selector: "#shot" });
    });
  }

  it("follows prefers-color-scheme without a theme attribute, and stays usable in forced colors", async function (this: Mocha.Context) {
    // Only where the driver can emulate media features (see status-bar.browser.test.ts); the themes are checked in
    // every engine through the theme attribute above.
    if (!(await engine()).media) return this.skip();
    const calls = await recordedCalls("1.6.0");
    const edit = byName(calls, "edit");
    const wrapper =
      await fixture<HTMLElement>(html`<div id="forced" style="display: grid; gap: 8px; inline-size: 640px">
      <pi-tool-card .call=${edit.committed} .execution=${edit.executions.at(-1)}></pi-tool-card>
      <pi-tool-card
        .call=${{ name: "bash", arguments: { command: "seq 9" } }}
        .execution=${run("bash", numbered(9).join("\n"), { durationMs: 90 })}
      ></pi-tool-card>
    </div>`);
    const el = wrapper.querySelector("pi-tool-card")!;
    await waitUntil(() => parts(el, "diff-mark").length > 0, "word marks", { timeout: 10_000 });
    try {
      await emulate({ colorScheme: "dark" });
      expect(getComputedStyle(part(el, "header")!).backgroundColor).to.equal("rgb(38, 38, 46)");
      await emulate({ colorScheme: "light" });
      expect(getComputedStyle(part(el, "header")!).backgroundColor).to.equal("rgb(244, 244, 247)");
      await emulate({ forcedColors: "active" });
      await expect(wrapper).to.be.accessible();
      // The changed words stay marked, in the system's highlight colours, when the page's colours are replaced.
      const mark = el.shadowRoot!.querySelector('[part~="diff-mark"]')!;
      const probe = document.createElement("span");
      probe.style.backgroundColor = "Highlight";
      document.body.append(probe);
      expect(getComputedStyle(mark).backgroundColor).to.equal(getComputedStyle(probe).backgroundColor);
      probe.remove();
      await executeServerCommand("screenshot", { name: "tool-card-forced-colors", selector: "#forced" });
    } finally {
      await emulate({ forcedColors: "none", colorScheme: "light" });
    }
  });
});
