/**
 * Hostile model and tool output in Chromium (hostile.json, issue #33): for each case of hostile-page.ts, the longest
 * main-thread task and the total blocking time (each long task's time past 50 ms) while the real elements render it,
 * as shipped ("after") and, for pi-markdown's cases, with its limits off ("before", at a smaller size where the full
 * one would take minutes). `longestTaskMsAfter` is the worst case's longest task as shipped: the goal is none over
 * 50 ms. `loadAverage` is the host's 1-minute load before and after.
 */
import { loadavg } from "node:os";
import { openBundledPage } from "./chromium-page.js";
import { buildTypeScript } from "./size.js";

export const goals = { longestTaskMsAfter: { max: 50 } };

export async function run(): Promise<object> {
  buildTypeScript();
  const before = loadavg()[0]!;
  const bench = await openBundledPage(new URL("./hostile-page.ts", import.meta.url));
  try {
    // BENCH_HOSTILE_CASES="name|name": only these cases.
    const only = process.env.BENCH_HOSTILE_CASES?.split("|");
    const cases = (await bench.page.evaluate(
      (o) => (globalThis as unknown as { benchHostile(o: string[] | undefined): Promise<object> }).benchHostile(o),
      only,
    )) as Record<string, { after: { longestTaskMs: number; blockingMs: number } }>;
    if (bench.errors.length > 0) throw new Error(`The page threw during the benchmark: ${bench.errors.join("; ")}`);
    for (const [name, { after, before }] of Object.entries(cases) as [string, { after: object; before?: object }][]) {
      console.log(`  ${name}: after ${JSON.stringify(after)}${before ? `, before ${JSON.stringify(before)}` : ""}`);
    }
    const longestTaskMsAfter = Math.max(...Object.values(cases).map(({ after }) => after.longestTaskMs));
    return { longestTaskMsAfter, cases, loadAverage: { before, after: loadavg()[0]! } };
  } finally {
    await bench.close();
  }
}
