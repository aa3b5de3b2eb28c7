/** The test command's summary (scripts/run-steps.mjs) reads the counts its steps' runners print. */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
// @ts-expect-error: plain JS without types, run by Node as it is.
import { countsOf, LANES, runLanes } from "../scripts/run-steps.mjs";

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

describe("the test command's lanes", () => {
  /** A step that runs `script` in Node. */
  const step = (name: string, script: string) => ({ name, what: name, command: [process.execPath, "-e", script] });

  it("starts the next step in the lane that frees first, while the other lane still runs", {
    timeout: 30_000,
  }, async () => {
    assert.equal(LANES, 2);
    const dir = mkdtempSync(join(tmpdir(), "pi-elements-lanes-"));
    const flag = JSON.stringify(join(dir, "third-started"));
    try {
      // The first step ends only once the third has started: with the third waiting for the first's lane (or for
      // both), this never ends, and the test's timeout says so.
      const results = await runLanes([
        step(
          "long",
          `const fs = require("node:fs"); const t = setInterval(() => fs.existsSync(${flag}) && clearInterval(t), 20);`,
        ),
        step("short", ""),
        step("third", `require("node:fs").writeFileSync(${flag}, "")`),
      ]);
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
    const results = await runLanes([step("fails", "process.exit(3)"), step("passes", ""), step("also", "")]);
    assert.deepEqual(
      results.map((result: { code: number }) => result.code),
      [3, 0, 0],
    );
  });
});
