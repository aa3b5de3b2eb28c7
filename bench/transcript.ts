/**
 * The transcript's budgets in Chromium (transcript.json, issue #21 item 8): a 50,000-character streamed answer with
 * code blocks at 100 `message_update`s a second (update-to-paint p95, long tasks), the per-update cost at 50,000
 * characters over that at 1,000 (for the transcript and, in the same rounds, for a naive whole-text re-lex), and a
 * 2,000-message history rebuilt to first paint (and its DOM nodes). See transcript-page.ts for what is timed and
 * how. `loadAverage` is the host's 1-minute load before and after: on a shared 2-core host the figures swing with it.
 */
import { loadavg } from "node:os";
import { openBundledPage } from "./chromium-page.js";
import { buildTypeScript } from "./size.js";

export const goals = {
  streamUpdateToPaintMsP95: { max: 16.7 },
  longTasks: { max: 0 },
  costGrowth50kVs1k: { max: 1.5 },
  historyRebuildMs: { max: 300 },
};

export async function run(): Promise<object> {
  // The page imports the built core and elements (dist/transcript.js).
  buildTypeScript();
  const before = loadavg()[0]!;
  const bench = await openBundledPage(new URL("./transcript-page.ts", import.meta.url), { isolated: true });
  try {
    const options = {
      stream: { length: 50_000, delta: 50, intervalMs: 10 },
      cost: { sizes: [1_000, 50_000], rounds: 6, updates: 40, delta: 20, warmup: 5 },
      history: { turns: 500, runs: 5 },
    };
    const figures = await bench.page.evaluate(
      (o) => (globalThis as unknown as { benchTranscript(o: unknown): Promise<object> }).benchTranscript(o),
      options,
    );
    if (bench.errors.length > 0) throw new Error(`The page threw during the benchmark: ${bench.errors.join("; ")}`);
    return { ...figures, loadAverage: { before, after: loadavg()[0]! } };
  } finally {
    await bench.close();
  }
}
