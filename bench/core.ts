/**
 * Core throughput, in Chromium: JsonlDecoder + PiSession against split-on-LF + JSON.parse of the same bytes in the
 * same page (see core-page.ts for what is timed, core-stream.ts for the stream).
 */
import { openBundledPage } from "./chromium-page.js";

export const goals = { throughputRatio: { min: 0.8 }, burstNotifications: { max: 2 } };

export async function run(): Promise<object> {
  const bench = await openBundledPage(new URL("./core-page.ts", import.meta.url));
  try {
    const options = { seed: 20261130, messages: 45_000, burstSize: 2000, rounds: 11 };
    const figures = await bench.page.evaluate(
      (o) => (globalThis as unknown as { benchCore(o: unknown): Promise<object> }).benchCore(o),
      options,
    );
    if (bench.errors.length > 0) throw new Error(`The page threw during the benchmark: ${bench.errors.join("; ")}`);
    return figures;
  } finally {
    await bench.close();
  }
}
