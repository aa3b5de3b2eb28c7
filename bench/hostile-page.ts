/**
 * The page of bench/hostile.ts: each case renders hostile model or tool output into the real elements (the build in
 * packages/elements/dist), streamed a frame at a time where a model would stream it, and reports the main thread's
 * long tasks meanwhile (PerformanceObserver "longtask", where the engine has it, Chromium: the longest, and the
 * total blocking time, each task's time past 50 ms), the longest gap between two animation frames (every engine: how
 * long the page could not paint or answer), and the wall time to the end. "Before" is the same case with pi-markdown's limits off, at a smaller size
 * where the full size would take minutes (its `size` says which).
 */
import "../packages/elements/dist/transcript.js";
import { NO_LIMITS } from "../packages/elements/dist/elements/markdown/block-lexer.js";
import { editRun } from "../packages/elements/test/support/edit-run.js";
import { streamInto } from "../packages/elements/test/support/stream.js";
import { words } from "../packages/elements/test/support/words.js";

interface Figures {
  size: number;
  /** Undefined in an engine without long task entries (Firefox, WebKit). */
  longestTaskMs: number | undefined;
  blockingMs: number | undefined;
  longestFrameGapMs: number;
  wallMs: number;
  /** Whether the text was all there at the end (formatted or as written). */
  complete: boolean;
}

type Markdown = HTMLElement & { text: string; streaming: boolean; limits?: unknown; updateComplete: Promise<boolean> };
type CodeBlock = HTMLElement & { code: string; language: string; streaming: boolean; updateComplete: Promise<boolean> };
type ToolCard = HTMLElement & {
  call: unknown;
  execution: unknown;
  expanded: boolean;
  updateComplete: Promise<boolean>;
};

const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
const task = () => new Promise<void>((resolve) => setTimeout(resolve));

/** A case's check that all of its text showed, run after the measurement (a check of 50,000 words takes seconds). */
type Check = () => boolean;

/** Runs `body` while long tasks and frames are observed; then its check. */
async function measure(size: number, body: () => Promise<Check>): Promise<Figures> {
  const tasks: number[] = [];
  const longTasks = PerformanceObserver.supportedEntryTypes.includes("longtask");
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push(entry.duration);
  });
  if (longTasks) observer.observe({ type: "longtask" });
  await frame();
  // The gaps between animation frames while the case runs.
  let last = performance.now();
  let longestGap = 0;
  let watching = true;
  const watch = (now: number) => {
    longestGap = Math.max(longestGap, now - last);
    last = now;
    if (watching) requestAnimationFrame(watch);
  };
  requestAnimationFrame(watch);
  const start = performance.now();
  const check = await body();
  const wallMs = performance.now() - start;
  await frame();
  watching = false;
  await task();
  for (const entry of observer.takeRecords()) tasks.push(entry.duration);
  observer.disconnect();
  const complete = check();
  return {
    size,
    longestTaskMs: longTasks ? Math.round(Math.max(0, ...tasks)) : undefined,
    blockingMs: longTasks ? Math.round(tasks.reduce((sum, ms) => sum + Math.max(0, ms - 50), 0)) : undefined,
    longestFrameGapMs: Math.round(longestGap),
    wallMs: Math.round(wallMs),
    complete,
  };
}

/**
 * A pi-markdown given `text` whole (a history message) or streamed in `updates` pieces, one a frame. Complete when
 * every word of the text shows (a link's URL does not: its text does).
 */
async function markdown(text: string, updates: number, limits: unknown): Promise<Check> {
  const el = document.createElement("pi-markdown") as Markdown;
  if (limits) el.limits = limits;
  document.body.append(el);
  if (updates <= 1) el.text = text;
  else await streamInto(el, "text", text, updates);
  await el.updateComplete;
  await frame();
  const shown = el.shadowRoot?.textContent ?? "";
  el.remove();
  return () => {
    // Formatting takes markers: every word of the text is there. A set first, the text itself where formatting
    // joined two words into one.
    const seen = new Set(shown.split(/[^A-Za-z0-9]+/));
    return text
      .replace(/\]\([^)]*\)/g, "]")
      .split(/[^A-Za-z0-9]+/)
      .every((word) => seen.has(word) || shown.includes(word));
  };
}

async function code(text: string, language: string, updates: number): Promise<Check> {
  const el = document.createElement("pi-code-block") as CodeBlock;
  el.language = language;
  document.body.append(el);
  if (updates <= 1) el.code = text;
  else await streamInto(el, "code", text, updates);
  await el.updateComplete;
  await frame();
  const shown = el.shadowRoot?.querySelector("code")?.textContent ?? "";
  el.remove();
  return () => shown === text;
}

/** An edit's card with pi's diff of `pairs` modified lines; done once every pair it will mark is marked. */
async function editCard(pairs: [string, string][]): Promise<Check> {
  const lines = pairs.flatMap(([before, after], i) => [`-${i + 1} ${before}`, `+${i + 1} ${after}`, ` ${i + 1} ;`]);
  const el = document.createElement("pi-tool-card") as ToolCard;
  el.call = { type: "toolCall", id: "e1", name: "edit", arguments: { path: "a.txt" } };
  el.expanded = true;
  el.execution = editRun(lines.join("\n"));
  document.body.append(el);
  await el.updateComplete;
  // The marks come in later tasks: until they stop changing for a few frames.
  let last = -1;
  for (let still = 0; still < 10; ) {
    await frame();
    await task();
    const count = el.shadowRoot?.querySelectorAll('[part~="diff-mark"]').length ?? 0;
    still = count === last ? still + 1 : 0;
    last = count;
  }
  const shown = el.shadowRoot?.textContent ?? "";
  el.remove();
  return () => pairs.every(([before, after]) => shown.includes(before) && shown.includes(after));
}

/** A bash call's card with `output`, expanded; done once its last line shows. */
async function bashCard(output: string): Promise<Check> {
  const el = document.createElement("pi-tool-card") as ToolCard;
  el.call = { type: "toolCall", id: "b1", name: "bash", arguments: { command: "seq" } };
  el.expanded = true;
  el.execution = {
    toolCallId: "b1",
    toolName: "bash",
    args: { command: "seq" },
    status: "done",
    result: { content: [{ type: "text", text: output }] },
    isError: false,
  };
  document.body.append(el);
  await el.updateComplete;
  await frame();
  const shown = el.shadowRoot?.textContent ?? "";
  el.remove();
  return () => shown.includes(output.slice(output.lastIndexOf("\n") + 1));
}

const nestedList = (depth: number) =>
  Array.from({ length: depth }, (_, i) => `${" ".repeat(i * 2)}- item ${i}`).join("\n");

/** Every case: its after (as shipped) and, where it has one, its before (limits off). */
const cases: Record<string, { after: () => Promise<Figures>; before?: () => Promise<Figures> }> = {
  "markdown: _a run, streamed": {
    after: () => measure(300_000, () => markdown("_a".repeat(150_000), 60, undefined)),
    before: () => measure(20_000, () => markdown("_a".repeat(10_000), 60, NO_LIMITS)),
  },
  "markdown: [ then ], streamed": {
    after: () => measure(100_000, () => markdown(`${"[".repeat(50_000)}${"]".repeat(50_000)}`, 60, undefined)),
    before: () => measure(10_000, () => markdown(`${"[".repeat(5_000)}${"]".repeat(5_000)}`, 60, NO_LIMITS)),
  },
  "markdown: globs *a*b, one record": {
    after: () => measure(100_000, () => markdown("*a*b".repeat(25_000), 1, undefined)),
    before: () => measure(20_000, () => markdown("*a*b".repeat(5_000), 1, NO_LIMITS)),
  },
  "markdown: snake_case, one record": {
    after: () => measure(100_000, () => markdown("a_b".repeat(33_333), 1, undefined)),
    before: () => measure(30_000, () => markdown("a_b".repeat(10_000), 1, NO_LIMITS)),
  },
  "markdown: 500 nested list items": {
    after: () => measure(500, () => markdown(nestedList(500), 1, undefined)),
    before: () => measure(250, () => markdown(nestedList(250), 1, NO_LIMITS)),
  },
  "markdown: a normal 50,000-character answer, streamed": {
    after: () =>
      measure(50_000, () =>
        markdown(
          "Some *emphasis*, `code`, a [link](https://example.com) and snake_case_names in a sentence.\n\n".repeat(540),
          100,
          undefined,
        ),
      ),
    before: () =>
      measure(50_000, () =>
        markdown(
          "Some *emphasis*, `code`, a [link](https://example.com) and snake_case_names in a sentence.\n\n".repeat(540),
          100,
          NO_LIMITS,
        ),
      ),
  },
  "markdown: one 300,000-character paragraph of words, streamed": {
    after: () => measure(300_000, () => markdown(words(50_000, 7), 100, undefined)),
  },
  "markdown: a table of 2,000 rows, one record": {
    after: () =>
      measure(2_000, () =>
        markdown(
          `| a | b | c |\n|---|---|---|\n${Array.from({ length: 2_000 }, (_, i) => `| r${i} | *x${i}* | \`y${i}\` |`).join("\n")}`,
          1,
          undefined,
        ),
      ),
  },
  "tool card: bash output of 100,000 lines, expanded": {
    after: () => measure(100_000, () => bashCard(Array.from({ length: 100_000 }, (_, i) => `line ${i}`).join("\n"))),
  },
  "tool card: edit of two unrelated 9 KB lines": {
    after: () => measure(18_000, () => editCard([[words(1_400, 1), words(1_400, 2)]])),
  },
  "tool card: edit of 400 modified lines": {
    after: () =>
      measure(400, () =>
        editCard(
          Array.from({ length: 400 }, (_, i) => [`let v${i} = "${words(40, i)}";`, `let v${i} = "${words(40, i)}!";`]),
        ),
      ),
  },
  "code block: 100 KB of dashes as ini": {
    after: () => measure(100_000, () => code(`${"-".repeat(99_999)}\n`, "ini", 1)),
  },
  "code block: 1 MB without a language, streamed": {
    after: () => measure(1_000_000, () => code("const value: number = 1; // a line\n".repeat(28_572), "", 100)),
  },
  "code block: 100 KB of TypeScript, one record": {
    after: () => measure(100_000, () => code("const value: number = 1; // a line\n".repeat(2_857), "ts", 1)),
  },
  "code block: 1 MB of TypeScript, streamed": {
    after: () => measure(1_000_000, () => code("const value: number = 1; // a line\n".repeat(28_572), "ts", 100)),
  },
};

/**
 * Every case (or those named in `only`), each after and (`before` true) before. First "idle": 30 frames of a page
 * doing nothing, the engine's own frame interval, the floor of every frame gap.
 */
async function benchHostile(
  only: string[] | undefined,
  before = true,
): Promise<Record<string, { after: Figures; before?: Figures }>> {
  const results: Record<string, { after: Figures; before?: Figures }> = {};
  results.idle = {
    after: await measure(0, async () => {
      for (let i = 0; i < 30; i++) await frame();
      return () => true;
    }),
  };
  // Warm up: the first render of each element compiles its code; no case should pay for that.
  await markdown("Some *text* with `code` and\n\n- a list\n  - nested\n\n> a quote", 3, undefined);
  await code("const a = 1;\n", "ts", 1);
  await editCard([["let a = 1;", "let a = 2;"]]);
  for (const [name, run] of Object.entries(cases)) {
    if (only && !only.includes(name)) continue;
    const after = await run.after();
    const without = before && run.before ? await run.before() : undefined;
    results[name] = without ? { after, before: without } : { after };
  }
  return results;
}

(globalThis as unknown as { benchHostile: typeof benchHostile }).benchHostile = benchHostile;
