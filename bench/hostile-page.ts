/**
 * The page of bench/hostile.ts: each case renders hostile model or tool output into the real elements (the build in
 * packages/elements/dist), streamed a frame at a time where a model would stream it, and reports the main thread's
 * long tasks meanwhile (PerformanceObserver "longtask": the longest, and the total blocking time, each task's time
 * past 50 ms) and the wall time to the end. "Before" is the same case with pi-markdown's limits off, at a smaller size
 * where the full size would take minutes (its `size` says which).
 */
import "../packages/elements/dist/transcript.js";
import { NO_LIMITS } from "../packages/elements/dist/elements/markdown/block-lexer.js";
import { words } from "../packages/elements/test/support/words.js";

interface Figures {
  size: number;
  longestTaskMs: number;
  blockingMs: number;
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

/** Runs `body` while long tasks are observed. */
async function measure(size: number, body: () => Promise<boolean>): Promise<Figures> {
  const tasks: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push(entry.duration);
  });
  observer.observe({ type: "longtask" });
  await frame();
  const start = performance.now();
  const complete = await body();
  const wallMs = performance.now() - start;
  await frame();
  await task();
  for (const entry of observer.takeRecords()) tasks.push(entry.duration);
  observer.disconnect();
  return {
    size,
    longestTaskMs: Math.round(Math.max(0, ...tasks)),
    blockingMs: Math.round(tasks.reduce((sum, ms) => sum + Math.max(0, ms - 50), 0)),
    wallMs: Math.round(wallMs),
    complete,
  };
}

/**
 * A pi-markdown given `text` whole (a history message) or streamed in `updates` pieces, one a frame. Complete when
 * every word of the text shows (a link's URL does not: its text does).
 */
async function markdown(text: string, updates: number, limits: unknown): Promise<boolean> {
  const el = document.createElement("pi-markdown") as Markdown;
  if (limits) el.limits = limits;
  document.body.append(el);
  if (updates <= 1) {
    el.text = text;
  } else {
    el.streaming = true;
    for (let i = 1; i <= updates; i++) {
      el.text = text.slice(0, Math.round((text.length * i) / updates));
      await el.updateComplete;
      await frame();
    }
    el.streaming = false;
  }
  await el.updateComplete;
  await frame();
  const shown = el.shadowRoot?.textContent ?? "";
  el.remove();
  // Formatted text loses its markers: every word of the text is there.
  return text
    .replace(/\]\([^)]*\)/g, "]")
    .split(/[^A-Za-z0-9]+/)
    .every((word) => shown.includes(word));
}

async function code(text: string, language: string, updates: number): Promise<boolean> {
  const el = document.createElement("pi-code-block") as CodeBlock;
  el.language = language;
  document.body.append(el);
  el.streaming = updates > 1;
  for (let i = 1; i <= updates; i++) {
    el.code = text.slice(0, Math.round((text.length * i) / updates));
    await el.updateComplete;
    await frame();
  }
  el.streaming = false;
  await el.updateComplete;
  await frame();
  const shown = el.shadowRoot?.querySelector("code")?.textContent ?? "";
  el.remove();
  return shown === text;
}

/** An edit's card with pi's diff of `pairs` modified lines; done once every pair it will mark is marked. */
async function editCard(pairs: [string, string][]): Promise<boolean> {
  const lines = pairs.flatMap(([before, after], i) => [`-${i + 1} ${before}`, `+${i + 1} ${after}`, ` ${i + 1} ;`]);
  const el = document.createElement("pi-tool-card") as ToolCard;
  el.call = { type: "toolCall", id: "e1", name: "edit", arguments: { path: "a.txt" } };
  el.expanded = true;
  el.execution = {
    toolCallId: "e1",
    toolName: "edit",
    args: { path: "a.txt" },
    status: "done",
    result: { content: [{ type: "text", text: "ok" }], details: { diff: lines.join("\n") } },
    isError: false,
  };
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
  return pairs.every(([before, after]) => shown.includes(before) && shown.includes(after));
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

async function benchHostile(only: string[] | undefined): Promise<Record<string, { after: Figures; before?: Figures }>> {
  const results: Record<string, { after: Figures; before?: Figures }> = {};
  // Warm up: the first render of each element compiles its code; no case should pay for that.
  await markdown("Some *text* with `code` and\n\n- a list\n  - nested\n\n> a quote", 3, undefined);
  await code("const a = 1;\n", "ts", 1);
  await editCard([["let a = 1;", "let a = 2;"]]);
  for (const [name, run] of Object.entries(cases)) {
    if (only && !only.includes(name)) continue;
    const after = await run.after();
    const before = run.before ? await run.before() : undefined;
    results[name] = before ? { after, before } : { after };
  }
  return results;
}

(globalThis as unknown as { benchHostile: typeof benchHostile }).benchHostile = benchHostile;
