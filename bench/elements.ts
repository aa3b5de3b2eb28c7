/**
 * The elements' budgets in Chromium (elements.json): the time from a dialog request on the transport to the dialog
 * visible and focused, and the pi-status-bar renders during a 2,000-setStatus burst. See elements-page.ts for what
 * is timed. The bundle's size is bench/size.ts (size.json).
 */

import { openBundledPage } from "./chromium-page.js";
import { buildTypeScript } from "./size.js";

export const goals = {
  dialogOpenMsP95: { max: 16.7 },
  statusBurstRenders: { max: 2 },
};

export async function run(): Promise<object> {
  // The page imports the built core.
  buildTypeScript();
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
