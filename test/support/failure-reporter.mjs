// A test-runner reporter that ends a run with one line per failed test ("FAILED <engine> <file> › <test>: <error>"),
// and one per file that failed without a failed test (a page that did not load, a test that timed out). The
// default reporter prints each failure where it happens, in the middle of a long log; CI keeps only the log's tail,
// and scripts/run-steps.mjs repeats these lines under its table so the tail says what failed.
import { relative } from "node:path";

/** The first line of an error's message, at most `max` characters. */
function firstLine(text, max = 240) {
  const line = String(text ?? "")
    .split("\n", 1)[0]
    .trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Every failed test in a session's results, as "suite > test" with its error. */
function failedTests(results, prefix = "") {
  if (!results) return [];
  const own = results.tests
    .filter((test) => !test.passed && !test.skipped)
    .map((test) => ({ name: `${prefix}${test.name}`, error: test.error?.message }));
  return [...own, ...results.suites.flatMap((suite) => failedTests(suite, `${prefix}${suite.name} > `))];
}

export function failureReporter() {
  return {
    onTestRunFinished({ sessions }) {
      const lines = [];
      for (const session of sessions) {
        if (session.passed) continue;
        const where = `${session.browser.name} ${relative(process.cwd(), session.testFile)}`;
        const tests = failedTests(session.testResults);
        for (const test of tests) lines.push(`FAILED ${where} › ${test.name}: ${firstLine(test.error)}`);
        if (tests.length === 0) {
          const error = session.errors?.[0]?.message ?? "no test result (the file's output above says more)";
          lines.push(`FAILED ${where} (the file, not one test): ${firstLine(error)}`);
        }
      }
      if (lines.length > 0) console.log(`\n${lines.join("\n")}\n`);
    },
  };
}
