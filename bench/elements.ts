/**
 * The elements' budgets (issue #3): bundle size (size.json) and, in Chromium, the time from a dialog request on the
 * transport to the dialog visible and focused, and the pi-status-bar renders during a 2,000-setStatus burst
 * (elements.json). See elements-page.ts for what is timed.
 */

import { openBundledPage } from "./chromium-page.js";
import type { BenchContext } from "./run.js";
import { measureSize } from "./size.js";

export const goals = {
  dialogOpenMsP95: { max: 16.7 },
  statusBurstRenders: { max: 2 },
  bundleGzipBytes: { max: 24 * 1024 },
};

export async function run(context: BenchContext): Promise<object> {
  const size = await measureSize();
  context.writeResult("size", size);
  console.log(`  bundleGzipBytes: ${size.bundleGzipBytes} (goal ≤ ${24 * 1024})`);
  for (const [tag, bytes] of Object.entries(size.perElement)) console.log(`    ${tag}: ${bytes}`);
  const bench = await openBundledPage(new URL("./elements-page.ts", import.meta.url));
  try {
    const options = { runs: 240, warmup: 20, burst: 2000 };
    const figures = await bench.page.evaluate(
      (o) => (globalThis as unknown as { benchElements(o: unknown): Promise<object> }).benchElements(o),
      options,
    );
    if (bench.errors.length > 0) throw new Error(`The page threw during the benchmark: ${bench.errors.join("; ")}`);
    return figures;
  } finally {
    await bench.close();
  }
}
