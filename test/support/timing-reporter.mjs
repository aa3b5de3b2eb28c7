// A test-runner reporter that writes how long each test file took in each engine (from the moment its page started
// to load to its last result) to the JSON file TEST_TIMINGS names: what docs/testing.md's per-file figures come from,
// and how to see where a run's time goes (`TEST_TIMINGS=/tmp/t.json pnpm test:browser`).
import { appendFileSync } from "node:fs";

export function timingReporter(file = process.env.TEST_TIMINGS) {
  const started = new Map();
  return {
    start({ sessions, startTime }) {
      if (!file) return;
      sessions.on("session-status-updated", (session) => {
        if (session.status !== "FINISHED" && !started.has(session.id)) started.set(session.id, Date.now());
        if (session.status !== "FINISHED") return;
        const begin = started.get(session.id);
        const line = {
          engine: session.browser.name,
          file: session.testFile.replace(`${process.cwd()}/`, ""),
          // A file whose page started loading before this reporter listened: from the run's start.
          ms: Date.now() - (begin ?? startTime),
          passed: Boolean(session.passed),
        };
        appendFileSync(file, `${JSON.stringify(line)}\n`);
      });
    },
  };
}
