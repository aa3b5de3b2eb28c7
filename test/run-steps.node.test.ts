/** The test command's summary (scripts/run-steps.mjs) reads the counts its steps' runners print. */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
// @ts-expect-error: plain JS without types, run by Node as it is.
import { countsOf, failuresOf, LANES, runLanes } from "../scripts/run-steps.mjs";
import { failureReporter } from "./support/failure-reporter.mjs";

describe("the test command's counts", () => {
  it("sums the test runner's last progress line per engine, escapes and all", () => {
    const output = [
      "\u001b[2K\u001b[1AChromium: |████      | 10/61 test files | 100 passed, 0 failed, 1 skipped",
      "Chromium: |██████████| 61/61 test files | 847 passed, 0 failed, 1 skipped",
      "Firefox:  |██████████| 61/61 test files | 836 passed, 2 failed, 12 skipped",
      "Finished running tests in 622s, all tests passed! 🎉",
      "WebKit: |██████████| 61/61 test files | 833 passed, 0 failed",
    ].join("\n");
    assert.deepEqual(countsOf(output), { passed: 2516, failed: 2, skipped: 13 });
  });

  it("reads Node's spec reporter's summary", () => {
    const output = "ℹ tests 878\nℹ suites 120\nℹ pass 876\nℹ fail 1\nℹ cancelled 0\nℹ skipped 1\nℹ todo 0\n";
    assert.deepEqual(countsOf(output), { passed: 876, failed: 1, skipped: 1 });
  });

  it("says nothing for a step without tests", () => {
    assert.equal(countsOf("Checked 476 files in 950ms. No fixes applied.\n"), undefined);
  });
});

describe("the test command's list of what failed", () => {
  it("names each test Node's runner failed, with its place and its error's first line, once", () => {
    const dir = mkdtempSync(join(tmpdir(), "failures-"));
    try {
      const file = join(dir, "a.test.mjs");
      writeFileSync(
        file,
        'import { describe, it } from "node:test";\n' +
          'describe("outer", () => { it("fails here", () => { throw new Error("boom\\nsecond"); }); it("passes", () => {}); });\n',
      );
      // Without NODE_TEST_CONTEXT, which would make the child report to this runner instead of printing.
      const { NODE_TEST_CONTEXT: _, ...env } = process.env;
      const run = spawnSync(process.execPath, ["--test", "--test-reporter=spec", "a.test.mjs"], {
        cwd: dir,
        encoding: "utf8",
        env,
      });
      assert.notEqual(run.status, 0);
      assert.deepEqual(failuresOf(run.stdout), ["FAILED a.test.mjs:2:27 › fails here: Error: boom"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("repeats the browser runner's FAILED lines, at most the number asked for", () => {
    const output = [
      "ok",
      "FAILED chromium a.browser.test.ts › x > y: expected 1",
      "FAILED webkit b.browser.test.ts › z: no",
    ];
    assert.deepEqual(failuresOf(output.join("\n"), 1), [
      "FAILED chromium a.browser.test.ts › x > y: expected 1",
      "… and 1 more",
    ]);
    assert.deepEqual(failuresOf("ℹ pass 3\nℹ fail 0\n"), []);
  });

  it("the browser runner's reporter prints a line per failed test, and one for a file that failed without one", () => {
    const printed: string[] = [];
    const log = console.log;
    console.log = (text: string) => printed.push(text);
    try {
      const results = (tests: object[], suites: object[] = []) => ({ name: "", tests, suites });
      failureReporter().onTestRunFinished({
        sessions: [
          { passed: true, browser: { name: "Chromium" }, testFile: `${process.cwd()}/ok.browser.test.ts` },
          {
            passed: false,
            browser: { name: "Firefox" },
            testFile: `${process.cwd()}/a.browser.test.ts`,
            testResults: results(
              [{ name: "top", passed: true }],
              [
                {
                  name: "suite",
                  tests: [{ name: "fails", passed: false, error: { message: "expected 1\nto be 2" } }],
                  suites: [],
                },
              ],
            ),
          },
          {
            passed: false,
            browser: { name: "WebKit" },
            testFile: `${process.cwd()}/b.browser.test.ts`,
            errors: [{ message: "timed out" }],
          },
        ],
      });
    } finally {
      console.log = log;
    }
    assert.deepEqual(failuresOf(printed.join("\n")), [
      "FAILED Firefox a.browser.test.ts › suite > fails: expected 1",
      "FAILED WebKit b.browser.test.ts (the file, not one test): timed out",
    ]);
  });
});

describe("the test command's lanes", () => {
  /** A step that runs `script` in Node. */
  const step = (name: string, script: string) => ({ name, what: name, command: [process.execPath, "-e", script] });
  /**
   * Where the lanes' output goes in these tests: kept here, never this process's stdout, which Node's test runner
   * reads as its own frames (a line written between two failed the file, "Unable to deserialize cloned data").
   */
  const captured = () => {
    let text = "";
    const sink = { write: (chunk: string | Buffer) => (text += String(chunk)) };
    return { output: { out: sink, err: sink }, text: () => text };
  };

  it("starts the next step in the lane that frees first, while the other lane still runs", {
    timeout: 30_000,
  }, async () => {
    assert.equal(LANES, 2);
    const dir = mkdtempSync(join(tmpdir(), "pi-elements-lanes-"));
    const flag = JSON.stringify(join(dir, "third-started"));
    try {
      // The first step ends only once the third has started: with the third waiting for the first's lane (or for
      // both), this never ends, and the test's timeout says so.
      const { output } = captured();
      const results = await runLanes(
        [
          step(
            "long",
            `const fs = require("node:fs"); const t = setInterval(() => fs.existsSync(${flag}) && clearInterval(t), 20);`,
          ),
          step("short", ""),
          step("third", `require("node:fs").writeFileSync(${flag}, "")`),
        ],
        output,
      );
      assert.deepEqual(
        results.map((result: { step: { name: string }; code: number }) => [result.step.name, result.code]),
        [
          ["long", 0],
          ["short", 0],
          ["third", 0],
        ],
      );
      const [long, short, third] = results as { started: number; seconds: number }[];
      assert.ok(
        third!.started >= short!.started + short!.seconds * 1000 - 1,
        "the third starts when the short one ends",
      );
      assert.ok(third!.started < long!.started + long!.seconds * 1000, "and before the long one ends");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("runs every step even after one fails, and reports each one's exit code", async () => {
    const { output, text } = captured();
    const results = await runLanes(
      [step("fails", "console.log('to the lane'); process.exit(3)"), step("passes", ""), step("also", "")],
      output,
    );
    assert.deepEqual(
      results.map((result: { code: number }) => result.code),
      [3, 0, 0],
    );
    // What the steps print and what the lanes say of them went to the output given.
    assert.match(text(), /to the lane/);
    assert.match(text(), /══ fails FAILED in \d+ s ══/);
    assert.match(text(), /══ also passed in \d+ s ══/);
  });
});
