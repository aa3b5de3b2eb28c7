/**
 * Where the transcript benchmark's time goes: a Chromium trace (devtools.timeline) of one part of
 * transcript-page.ts run alone, printed as the renderer main thread's self time per trace event, per update.
 * Not part of `pnpm bench`.
 *
 *   BENCH_MINIFY=0 node --import tsx bench/transcript-profile.ts cost 1000     # 200 updates at 1,000 characters
 *   BENCH_MINIFY=0 node --import tsx bench/transcript-profile.ts cost 50000
 *   BENCH_MINIFY=0 node --import tsx bench/transcript-profile.ts stream        # the 50,000-character stream
 *   BENCH_MINIFY=0 node --import tsx bench/transcript-profile.ts history
 *
 * `TRACE_OUT=file.json` also writes the raw trace (open it in the DevTools Performance panel).
 */
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { openBundledPage } from "./chromium-page.js";
import { buildTypeScript } from "./size.js";

type Page = { profileTranscript(part: string, options: Record<string, number>): Promise<unknown> };
interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

const part = process.argv[2] ?? "cost";
const size = Number(process.argv[3] ?? 1000);
const naive = process.argv.includes("naive") ? 1 : 0;
buildTypeScript();
const bench = await openBundledPage(new URL("./transcript-page.ts", import.meta.url), { isolated: true });
try {
  const browser = bench.page.context().browser()!;
  const options = part === "cost" ? { size, updates: 200, naive } : {};
  const load = loadavg()[0]!;
  await browser.startTracing(bench.page, {
    categories: [
      "devtools.timeline",
      "disabled-by-default-devtools.timeline",
      "blink",
      "v8.execute",
      "blink.user_timing",
    ],
  });
  const result = await bench.page.evaluate(
    ([p, o]) => (globalThis as unknown as Page).profileTranscript(p as string, o as Record<string, number>),
    [part, options] as const,
  );
  const buffer = await browser.stopTracing();
  if (process.env.TRACE_OUT) writeFileSync(process.env.TRACE_OUT, buffer);
  const events = (JSON.parse(buffer.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  const main = events.find((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain");
  // Only what happens between the page's marks (the timed updates), where it sets them.
  const mark = (name: string) => events.find((e) => e.name === name)?.ts;
  const from = mark("cost-start") ?? Number.NEGATIVE_INFINITY;
  const to = mark("cost-end") ?? Number.POSITIVE_INFINITY;
  const complete = events
    .filter((e) => main && e.pid === main.pid && e.tid === main.tid && e.ph === "X" && e.dur !== undefined)
    .filter((e) => e.ts >= from && e.ts <= to)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  // Self time: each event's duration less that of the events nested in it.
  const self = new Map<string, number>();
  const count = new Map<string, number>();
  const stack: { end: number; name: string }[] = [];
  for (const event of complete) {
    while (stack.length > 0 && stack.at(-1)!.end <= event.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - event.dur!);
    self.set(event.name, (self.get(event.name) ?? 0) + event.dur!);
    count.set(event.name, (count.get(event.name) ?? 0) + 1);
    stack.push({ end: event.ts + event.dur!, name: event.name });
  }
  const updates = part === "cost" ? 205 : part === "stream" ? 1000 : 1;
  console.log(`${part}${part === "cost" ? ` at ${size}${naive ? " naive" : ""}` : ""}: load ${load}`, result);
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(`main thread busy ${(total / 1000 / updates).toFixed(3)} ms per update`);
  for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) {
    console.log(
      `${(us / 1000 / updates).toFixed(3).padStart(9)} ms/update  ${String(count.get(name)).padStart(6)}×  ${name}`,
    );
  }
  if (bench.errors.length > 0) console.error("page errors:", bench.errors);
} finally {
  await bench.close();
}
