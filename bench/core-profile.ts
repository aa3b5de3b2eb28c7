/**
 * Where the core benchmark's time goes: a CDP CPU profile of the core path (or, with `baseline`, of the baseline)
 * alone, on the benchmark's stream, printed as self time per function. Not part of `pnpm bench`.
 *
 *   BENCH_MINIFY=0 node --import tsx bench/core-profile.ts [baseline]
 *
 * Profile on a quiet machine: under load, time spent in C++ (Event construction, dispatchEvent, TextDecoder)
 * is inflated far more than JIT-compiled JavaScript, and the picture is wrong.
 */
import { openBundledPage } from "./chromium-page.js";

type Page = { profileCore(options: object): Promise<void> };
const options = { seed: 20261130, messages: 45_000, burstSize: 2000, baseline: process.argv[2] === "baseline" };
const bench = await openBundledPage(new URL("./core-page.ts", import.meta.url));
try {
  const cdp = await bench.page.context().newCDPSession(bench.page);
  // The first pass generates the stream and warms the code up; only the next ones are profiled.
  await bench.page.evaluate((o) => (globalThis as unknown as Page).profileCore({ ...o, times: 1 }), options);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
  await cdp.send("Profiler.start");
  await bench.page.evaluate((o) => (globalThis as unknown as Page).profileCore({ ...o, times: 4 }), options);
  const { profile } = await cdp.send("Profiler.stop");

  const samples = profile.samples ?? [];
  const msPerSample = (profile.endTime - profile.startTime) / 1000 / Math.max(1, samples.length);
  const hits = new Map<number, number>();
  for (const id of samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  const selfMs = new Map<string, number>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    const where = url ? ` ${url.split("/").pop()}:${lineNumber + 1}:${columnNumber + 1}` : "";
    const key = `${functionName || "(anonymous)"}${where}`;
    selfMs.set(key, (selfMs.get(key) ?? 0) + (hits.get(node.id) ?? 0) * msPerSample);
  }
  console.log(
    `${options.baseline ? "baseline" : "core"}: ${((profile.endTime - profile.startTime) / 1000).toFixed(0)} ms`,
  );
  for (const [key, ms] of [...selfMs].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    console.log(`${ms.toFixed(0).padStart(7)} ms  ${key}`);
  }
  if (bench.errors.length > 0) console.error("page errors:", bench.errors);
} finally {
  await bench.close();
}
