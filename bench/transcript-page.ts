/**
 * The transcript benchmark's page side (bundled by esbuild with Lit's production build, run in Chromium). The
 * elements are the built ones (`packages/elements/dist/transcript.js`: pi-transcript, pi-markdown, pi-code-block,
 * pi-tool-card), fed through the built core: a `ConversationState` given to `<pi-transcript>`'s `store`, with
 * events shaped as pi 1.6.0 sends them (message_start, text_start, text_delta deltas with the cumulative usage, as
 * in test/fixtures/conversation/1.6.0/markdown.jsonl).
 *
 * - stream: a 50,000-character Markdown answer (prose, lists, quotes and fenced code blocks in five languages)
 *   arrives as 1,000 `text_delta`s of 50 characters, one every 10 ms (100 a second, each in a task of its own,
 *   scheduled against a fixed clock so a late one does not shift the rest). An update's arrival is
 *   `performance.now()` just before `state.apply()`. Its paint is measured the way Chromium's own "next paint"
 *   figures are approximated without a paint timing API: a `requestAnimationFrame` callback runs in the rendering
 *   step of the next frame (after which style, layout and paint of that frame follow in the same task), and a
 *   MessageChannel task posted from it runs once that frame's rendering step is done; its `performance.now()` is
 *   the paint time of every update that arrived before that rAF callback. (Chromium's "event" timing covers input
 *   events only, and "long-animation-frame" entries only frames over 50 ms, so neither times a network-driven
 *   update.) Long tasks: PerformanceObserver("longtask") over the whole stream, which also covers what renders
 *   after the updates (highlighting loading, the code blocks' own renders); `longFrames` splits each frame over 50 ms
 *   (PerformanceObserver "long-animation-frame") into its scripts and its style-and-layout step.
 * - cost: the time from `state.apply()` of one 20-character delta to the transcript's render done, the streaming
 *   `<pi-markdown>`'s render done (its `updateComplete`) and a forced layout (`getBoundingClientRect`), with the
 *   message already holding 1,000 or 50,000 characters; median over many updates (`renderOnly…` is the same without
 *   the layout, to tell script from layout). Each delta comes after a frame (the transcript renders at most one
 *   store change between frames at once; later ones wait for the next frame), so this is the work of one update,
 *   not the wait for a frame. In the same rounds, interleaved (sides and sizes in a rotating order,
 *   the same deltas): the same delta to a standalone `<pi-markdown>` (the element alone), and to a naive element
 *   (NaiveMarkdown below) that lexes the whole text again on every update with the same parser and renders every
 *   block again through pi-markdown's own renderer and styles, with no guards (Lit still skips DOM writes of
 *   unchanged text, so what grows is the lexing and the diff of every block). The page is served cross-origin
 *   isolated, so `performance.now()` has 5 µs resolution rather than 100 µs.
 * - history: `setHistory` of a 2,000-message `get_messages` answer (`longHistory(500)` of the transcript tests) into
 *   the store of a connected, empty `<pi-transcript>`, to the next paint (rAF + task as above); then, after the
 *   transcript has filled in every entry (its feed no longer `aria-busy`), the DOM nodes of the page, shadow roots
 *   included.
 */
import { ConversationState } from "../packages/core/dist/conversation/index.js";
import "../packages/elements/dist/transcript.js";
import { PiElement } from "../packages/elements/dist/base/pi-element.js";
import { type Block, BlockLexer } from "../packages/elements/dist/elements/markdown/block-lexer.js";
import { styles as markdownStyles } from "../packages/elements/dist/elements/markdown/markdown.styles.js";
import { block, type RenderContext } from "../packages/elements/dist/elements/markdown/render.js";
import { longHistory } from "../packages/elements/test/support/transcript.js";

type Transcript = HTMLElement & { store: ConversationState | undefined; updateComplete: Promise<boolean> };
type Markdown = HTMLElement & { text: string; streaming: boolean; updateComplete: Promise<boolean> };

/** A macrotask turn without setTimeout's clamping. */
const channel = new MessageChannel();
const pending: (() => void)[] = [];
channel.port1.onmessage = () => pending.shift()?.();
const yieldTask = () =>
  new Promise<void>((resolve) => {
    pending.push(resolve);
    channel.port2.postMessage(null);
  });
/** After the next frame's rendering step (see the module comment). */
const nextPaint = () => new Promise<void>((resolve) => requestAnimationFrame(() => yieldTask().then(resolve)));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// --- The answer ---------------------------------------------------------------------------------------------

const LANGUAGES = ["ts", "python", "sh", "json", "rust"] as const;
function codeFor(language: (typeof LANGUAGES)[number], n: number): string {
  switch (language) {
    case "ts":
      return `export function step${n}(input: readonly number[]): number {\n  let total = 0;\n  for (const value of input) total += value * ${n};\n  return total; // step ${n}\n}\n`;
    case "python":
      return `def step_${n}(items):\n    """Sum the items of step ${n}."""\n    return sum(x * ${n} for x in items if x > 0)\n`;
    case "sh":
      return `cd packages/step-${n} && pnpm run build\ngrep -rn "step${n}" src | head -20\n`;
    case "json":
      return `{\n  "name": "step-${n}",\n  "version": "1.${n}.0",\n  "private": true,\n  "scripts": { "test": "node --test" }\n}\n`;
    default:
      return `fn step_${n}(input: &[i64]) -> i64 {\n    input.iter().map(|x| x * ${n}).sum()\n}\n`;
  }
}

/** A Markdown answer of at least `length` characters: sections of prose, a list, a quote and a code block. */
export function answer(length: number): string {
  let text = "";
  for (let n = 0; text.length < length; n++) {
    const language = LANGUAGES[n % LANGUAGES.length]!;
    text +=
      `## Step ${n}: the \`step${n}\` change\n\n` +
      `First we read **file-${n}.ts** and check what it exports; the function is called from three places, ` +
      `so its signature stays. See [the notes](https://example.com/notes/${n}) for why the *loop* is kept.\n\n` +
      `- rename the helper to \`step${n}\`\n- keep the ~~old~~ export for one release\n- add a test for the empty case\n\n` +
      `\`\`\`${language}\n${codeFor(language, n)}\`\`\`\n\n` +
      (n % 3 === 0 ? `> Note: step ${n} must land before step ${n + 1}, which depends on it.\n\n` : "") +
      `That is all for step ${n}; the build passes and the tests cover the new branch.\n\n`;
  }
  return text;
}

// --- pi 1.6.0's events ----------------------------------------------------------------------------------------

const usage = (output: number) => ({
  input: 10,
  output,
  cacheRead: 0,
  cacheWrite: 0,
  reasoning: 0,
  totalTokens: 10 + output,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0, totalFromProvider: false },
});
const messageStart = () => ({
  type: "message_start",
  message: {
    role: "assistant",
    content: [],
    api: "openai-completions",
    provider: "scripted",
    model: "scripted-model",
    usage: usage(0),
    stopReason: "pending",
    timestamp: 1_796_167_343_251,
  },
});
const textStart = () => ({
  type: "message_update",
  usage: usage(1),
  assistantMessageEvent: { type: "text_start", contentIndex: 0 },
});
const textDelta = (delta: string, output: number) => ({
  type: "message_update",
  usage: usage(output),
  assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta },
});

/** A store streaming an assistant message that already holds `prefix` (one turn before it, as in a session). */
function streamingStore(prefix: string): ConversationState {
  const state = new ConversationState();
  state.apply({ type: "agent_start" });
  state.apply({ type: "turn_start" });
  const user = { role: "user", content: [{ type: "text", text: "Plan the change in Markdown" }], timestamp: 1 };
  state.apply({ type: "message_start", message: user });
  state.apply({ type: "message_end", message: user });
  state.apply(messageStart());
  state.apply(textStart());
  if (prefix !== "") state.apply(textDelta(prefix, 1));
  return state;
}

function newTranscript(): Transcript {
  const transcript = document.createElement("pi-transcript") as unknown as Transcript;
  // Its own display (a flex column): the feed scrolls inside it, as on a page that gives it a height.
  transcript.style.cssText = "height: 700px; width: 900px";
  document.body.append(transcript);
  return transcript;
}

function streamingMarkdown(transcript: Transcript): Markdown {
  const markdown = transcript.shadowRoot?.querySelector<Markdown>('[part~="streaming"] pi-markdown');
  if (!markdown) throw new Error("the transcript shows no streaming pi-markdown");
  return markdown;
}

// --- stream: update to paint ------------------------------------------------------------------------------------

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
};
const median = (values: number[]) => quantile(values, 0.5);

/**
 * Calls `apply(i)` for `count` updates, `intervalMs` apart, and times each from its arrival (just before `apply`) to
 * the paint of the frame that covers it: a requestAnimationFrame callback runs in that frame's rendering step, and a
 * task queued from it runs after the frame's style, layout and paint.
 */
async function timeUpdates(count: number, intervalMs: number, apply: (i: number) => void) {
  const arrivals: number[] = [];
  const paints: number[] = [];
  /** Updates that arrived before the frame watched now began (painted by it), and whether one is watched. */
  let unpainted: number[] = [];
  let watching = false;
  const watch = () => {
    if (watching) return;
    watching = true;
    requestAnimationFrame(() => {
      const covered = unpainted;
      unpainted = [];
      watching = false;
      void yieldTask().then(() => {
        const at = performance.now();
        for (const index of covered) paints[index] = at;
      });
    });
  };
  const start = performance.now() + 20;
  for (let i = 0; i < count; i++) {
    const due = start + i * intervalMs;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait - 1);
    while (performance.now() < due) await yieldTask();
    arrivals[i] = performance.now();
    apply(i);
    unpainted.push(i);
    watch();
  }
  const sentMs = performance.now() - start;
  while (paints.length < count || paints.includes(undefined as unknown as number)) await nextPaint();
  return { arrivals, latencies: arrivals.map((arrival, i) => paints[i]! - arrival), sentMs };
}

async function stream(options: { length: number; delta: number; intervalMs: number }) {
  const text = answer(options.length).slice(0, options.length);
  const deltas: string[] = [];
  for (let i = 0; i < text.length; i += options.delta) deltas.push(text.slice(i, i + options.delta));
  const transcript = newTranscript();
  const state = streamingStore("");
  transcript.store = state;
  await nextPaint();
  await nextPaint();

  const longTasks: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => {
    longTasks.push(...list.getEntries());
  });
  observer.observe({ type: "longtask" });
  // What the long frames spent their time on (Chromium's long-animation-frame entries, frames over 50 ms).
  type LongFrame = PerformanceEntry & {
    renderStart: number;
    styleAndLayoutStart: number;
    scripts: readonly (PerformanceEntry & { invoker: string; sourceFunctionName: string })[];
  };
  const longFrames: LongFrame[] = [];
  const frames = new PerformanceObserver((list) => {
    longFrames.push(...(list.getEntries() as LongFrame[]));
  });
  if (PerformanceObserver.supportedEntryTypes.includes("long-animation-frame")) {
    frames.observe({ type: "long-animation-frame" });
  }

  const {
    arrivals,
    latencies,
    sentMs: sent,
  } = await timeUpdates(deltas.length, options.intervalMs, (i) => state.apply(textDelta(deltas[i]!, i + 2)));
  // What renders after the last update (highlighting of the last code blocks) still counts for long tasks.
  for (let i = 0; i < 30; i++) await nextPaint();
  longTasks.push(...observer.takeRecords());
  observer.disconnect();
  longFrames.push(...(frames.takeRecords() as LongFrame[]));
  frames.disconnect();
  const end = (entry: PerformanceEntry) => entry.startTime + entry.duration;
  /** Per long frame: its length, the script in it, and its rendering step (rAF, style, layout, paint). */
  const longFrameParts = longFrames.map((frame) => ({
    ms: frame.duration,
    scriptMs: frame.scripts.reduce((sum, script) => sum + script.duration, 0),
    styleAndLayoutMs: frame.styleAndLayoutStart > 0 ? end(frame) - frame.styleAndLayoutStart : 0,
    renderMs: frame.renderStart > 0 ? end(frame) - frame.renderStart : 0,
    longestScript: [...frame.scripts]
      .sort((a, b) => b.duration - a.duration)
      .slice(0, 1)
      .map((script) => `${script.invoker} ${script.sourceFunctionName} ${Math.round(script.duration)} ms`)[0],
  }));
  /** Where in the stream each long task began: the characters applied by then, and its length. */
  const longTasksAt = longTasks.map((entry) => {
    let applied = 0;
    while (applied < arrivals.length && arrivals[applied]! <= entry.startTime) applied++;
    return { characters: Math.min(text.length, applied * options.delta), ms: entry.duration };
  });

  const markdown = streamingMarkdown(transcript);
  await markdown.updateComplete;
  const shownCodeBlocks = markdown.shadowRoot!.querySelectorAll("pi-code-block").length;
  const shownChars = markdown.text.length;
  if (shownChars !== text.length) throw new Error(`the transcript shows ${shownChars} of ${text.length} characters`);
  transcript.remove();
  // The same schedule with nothing applied: the wait for the next frame alone (an update arriving at a random point
  // of a 16.7 ms frame waits for the next one), the floor under the figures above.
  const idle = await timeUpdates(300, options.intervalMs, () => {});
  // The same schedule, each update changing one text node: the floor under any update that has to paint (its style,
  // layout, paint and commit, with no element's script at all).
  const line = document.body.appendChild(document.createElement("p"));
  const characters = line.appendChild(document.createTextNode(""));
  const oneText = await timeUpdates(300, options.intervalMs, (i) => {
    characters.data = `update ${i}`;
  });
  line.remove();
  return {
    streamUpdateToPaintMsP95: quantile(latencies, 0.95),
    streamUpdateToPaintMsP50: median(latencies),
    idleUpdateToPaintMsP95: quantile(idle.latencies, 0.95),
    idleUpdateToPaintMsP50: median(idle.latencies),
    textUpdateToPaintMsP95: quantile(oneText.latencies, 0.95),
    textUpdateToPaintMsP50: median(oneText.latencies),
    streamUpdateToPaintMsMax: Math.max(...latencies),
    longTasks: longTasks.length,
    longTaskMsMax: Math.max(0, ...longTasks.map((entry) => entry.duration)),
    longTasksAt,
    longFrames: longFrameParts,
    streamCharacters: text.length,
    streamUpdates: deltas.length,
    streamUpdatesPerSecond: (deltas.length / sent) * 1000,
    streamCodeBlocks: (text.match(/^```[a-z]+$/gm) ?? []).length,
    streamCodeBlocksShown: shownCodeBlocks,
  };
}

// --- cost: incremental vs naive -----------------------------------------------------------------------------------

/**
 * The naive baseline: the whole text lexed again on every update by the same parser as pi-markdown's (a new
 * BlockLexer has nothing final yet, so it runs marked's lexer over all of it, and repairs the last block as
 * pi-markdown does while streaming), and every token rendered again by pi-markdown's renderer.
 */
class NaiveMarkdown extends PiElement {
  static override styles = markdownStyles;
  static override properties = { text: { attribute: false }, streaming: { type: Boolean } };
  declare text: string;
  declare streaming: boolean;
  #blocks: Block[] = [];
  readonly #context: RenderContext = { t: (key) => key, loadImages: false, open: false };
  readonly #open: RenderContext = { ...this.#context, open: true };
  constructor() {
    super();
    this.text = "";
    this.streaming = false;
  }
  protected override willUpdate(changed: Map<PropertyKey, unknown>): void {
    if (changed.has("text") || changed.has("streaming")) {
      const { final, rest } = new BlockLexer().update(this.text, this.streaming);
      this.#blocks = [...final, ...rest];
    }
  }
  // The blocks without pi-markdown's `part="base"` wrapper (bench/ has no lit of its own for `html`); the wrapper
  // only trims the first and last block's margins.
  protected override render() {
    return this.#blocks.map((entry) => block(entry.token, entry.open ? this.#open : this.#context));
  }
}
customElements.define("bench-naive-markdown", NaiveMarkdown);

type Side = "transcript" | "markdown" | "naive";
const SIDES: readonly Side[] = ["transcript", "markdown", "naive"];

/** One side at one size: `updates` deltas of `delta` characters from `size` on, each timed; the first `warmup` not. */
async function costRun(side: Side, text: string, size: number, updates: number, delta: number, warmup: number) {
  const times: number[] = [];
  /** The same updates until the render is done, before the forced layout (the script's share). */
  const scripts: number[] = [];
  let applied = size;
  if (side === "transcript") {
    const transcript = newTranscript();
    const state = streamingStore(text.slice(0, size));
    transcript.store = state;
    await nextPaint();
    await nextPaint();
    performance.mark("cost-start");
    for (let i = 0; i < warmup + updates; i++) {
      const piece = text.slice(applied, applied + delta);
      applied += delta;
      const t0 = performance.now();
      state.apply(textDelta(piece, i + 2));
      // The store notifies in a microtask; the transcript renders in the next, its pi-markdown after that.
      await new Promise<void>(queueMicrotask);
      await transcript.updateComplete;
      const markdown = streamingMarkdown(transcript);
      await markdown.updateComplete;
      const rendered = performance.now();
      markdown.getBoundingClientRect();
      const t1 = performance.now();
      if (markdown.text.length !== applied) throw new Error(`transcript: ${markdown.text.length} ≠ ${applied}`);
      if (i >= warmup) times.push(t1 - t0);
      if (i >= warmup) scripts.push(rendered - t0);
      // The next delta after a frame: the transcript renders a store change at once when it has not rendered since
      // the last frame (later ones wait for the next frame and render together), so this times the work of one
      // update, not the wait for a frame.
      await nextPaint();
    }
    performance.mark("cost-end");
    transcript.remove();
  } else {
    const element = document.createElement(side === "naive" ? "bench-naive-markdown" : "pi-markdown") as Markdown;
    element.style.cssText = "display: block; width: 900px";
    element.streaming = true;
    element.text = text.slice(0, size);
    document.body.append(element);
    await element.updateComplete;
    await nextPaint();
    performance.mark("cost-start");
    for (let i = 0; i < warmup + updates; i++) {
      applied += delta;
      const t0 = performance.now();
      element.text = text.slice(0, applied);
      await element.updateComplete;
      const rendered = performance.now();
      element.getBoundingClientRect();
      const t1 = performance.now();
      if (i >= warmup) times.push(t1 - t0);
      if (i >= warmup) scripts.push(rendered - t0);
      await nextPaint();
    }
    performance.mark("cost-end");
    element.remove();
  }
  return { times, scripts };
}

async function cost(options: {
  sizes: [number, number];
  rounds: number;
  updates: number;
  delta: number;
  warmup: number;
}) {
  const [small, large] = options.sizes;
  const text = answer(large + (options.warmup + options.updates + 1) * options.delta);
  const sized = () => ({ [small]: [] as number[], [large]: [] as number[] });
  const times: Record<Side, Record<number, number[]>> = { transcript: sized(), markdown: sized(), naive: sized() };
  const scripts: Record<Side, Record<number, number[]>> = { transcript: sized(), markdown: sized(), naive: sized() };
  for (let round = 0; round < options.rounds; round++) {
    // A rotating order of sides, and of sizes, so neither is always first after a gc().
    const sides = SIDES.map((_, i) => SIDES[(i + round) % SIDES.length]!);
    const sizes = round % 2 === 0 ? [small, large] : [large, small];
    for (const size of sizes) {
      for (const side of sides) {
        (globalThis as unknown as { gc?: () => void }).gc?.();
        const run = await costRun(side, text, size, options.updates, options.delta, options.warmup);
        times[side][size]!.push(...run.times);
        scripts[side][size]!.push(...run.scripts);
      }
    }
  }
  const per = (side: Side) => ({
    at1k: median(times[side][small]!),
    at50k: median(times[side][large]!),
    renderOnlyAt1k: median(scripts[side][small]!),
    renderOnlyAt50k: median(scripts[side][large]!),
  });
  const transcript = per("transcript");
  const markdown = per("markdown");
  const naive = per("naive");
  return {
    costGrowth50kVs1k: transcript.at50k / transcript.at1k,
    naiveCostGrowth50kVs1k: naive.at50k / naive.at1k,
    markdownCostGrowth50kVs1k: markdown.at50k / markdown.at1k,
    updateCostMs: { transcript, markdown, naive },
    costUpdatesPerSideAndSize: times.transcript[small]!.length,
    costDeltaCharacters: options.delta,
  };
}

// --- history ------------------------------------------------------------------------------------------------------

/** Every node of the document, shadow roots' too, and how many of them are whitespace-only text and comments. */
function countNodes(root: Node): { all: number; whitespace: number; comments: number; tags: Record<string, number> } {
  let count = 0;
  let whitespace = 0;
  let comments = 0;
  const tags: Record<string, number> = {};
  const walk = (node: Node) => {
    count++;
    if (node.nodeType === Node.COMMENT_NODE) comments++;
    else if (node.nodeType === Node.TEXT_NODE && !node.nodeValue?.trim()) whitespace++;
    else if (node.nodeType === Node.ELEMENT_NODE) tags[node.nodeName] = (tags[node.nodeName] ?? 0) + 1;
    const shadow = (node as Element).shadowRoot;
    if (shadow) walk(shadow);
    for (let child = node.firstChild; child; child = child.nextSibling) walk(child);
  };
  walk(root);
  return { all: count, whitespace, comments, tags };
}

async function history(options: { turns: number; runs: number }) {
  const messages = longHistory(options.turns);
  const paint: number[] = [];
  const filled: number[] = [];
  let nodes = { all: 0, whitespace: 0, comments: 0, tags: {} as Record<string, number> };
  let articles = 0;
  for (let run = 0; run < options.runs; run++) {
    (globalThis as unknown as { gc?: () => void }).gc?.();
    const transcript = newTranscript();
    const state = new ConversationState();
    transcript.store = state;
    await nextPaint();
    await nextPaint();
    const t0 = performance.now();
    state.setHistory(messages, state.mark());
    await nextPaint();
    paint.push(performance.now() - t0);
    const feed = () => transcript.shadowRoot!.querySelector('[part~="feed"]')!;
    for (let frames = 0; feed().getAttribute("aria-busy") === "true"; frames++) {
      if (frames > 5000) throw new Error("the history never filled in");
      await nextPaint();
    }
    filled.push(performance.now() - t0);
    // Let the last chunk's elements render their own shadow roots.
    for (let i = 0; i < 5; i++) await nextPaint();
    nodes = countNodes(document.documentElement);
    articles = feed().querySelectorAll('[part~="entry"]').length;
    transcript.remove();
  }
  return {
    historyRebuildMs: median(paint),
    historyDomNodes: nodes.all,
    historyWhitespaceTextNodes: nodes.whitespace,
    historyCommentNodes: nodes.comments,
    historyElementsByTag: Object.fromEntries(
      Object.entries(nodes.tags)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 12),
    ),
    historyFilledMs: median(filled),
    historyMessages: messages.length,
    historyArticles: articles,
    historyRuns: options.runs,
    historyRebuildMsEach: paint,
  };
}

async function benchTranscript(options: {
  stream: { length: number; delta: number; intervalMs: number };
  cost: { sizes: [number, number]; rounds: number; updates: number; delta: number; warmup: number };
  history: { turns: number; runs: number };
}) {
  // Load highlighting once (pi-code-block loads lowlight on its first code block with a language), as a page that
  // has shown one code block has; the first load is not what is measured here.
  const warm = document.createElement("pi-markdown") as Markdown;
  warm.text = "```ts\nconst a = 1;\n```\n";
  document.body.append(warm);
  for (let i = 0; i < 20; i++) await nextPaint();
  warm.remove();
  const streamed = await stream(options.stream);
  const costs = await cost(options.cost);
  const rebuilt = await history(options.history);
  return { ...streamed, ...costs, ...rebuilt, crossOriginIsolated };
}

(globalThis as unknown as { benchTranscript: typeof benchTranscript }).benchTranscript = benchTranscript;

/** For transcript-profile.ts: the parts, each run alone under a trace (highlighting loaded first, as above). */
async function profileTranscript(part: "stream" | "cost" | "history", options: Record<string, number>) {
  const warm = document.createElement("pi-markdown") as Markdown;
  warm.text = "```ts\nconst a = 1;\n```\n";
  document.body.append(warm);
  for (let i = 0; i < 20; i++) await nextPaint();
  warm.remove();
  if (part === "stream") return stream({ length: 50_000, delta: 50, intervalMs: 10, ...options });
  if (part === "history") return history({ turns: 500, runs: 1, ...options });
  const size = options.size ?? 1_000;
  const updates = options.updates ?? 200;
  const text = answer(size + (updates + 10) * 20);
  const run = await costRun(options.naive ? "naive" : "transcript", text, size, updates, 20, 5);
  return { median: median(run.times), renderOnly: median(run.scripts) };
}
(globalThis as unknown as { profileTranscript: typeof profileTranscript }).profileTranscript = profileTranscript;
