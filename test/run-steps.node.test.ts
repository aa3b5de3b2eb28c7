/** The test command's summary (scripts/run-steps.mjs) reads the counts its steps' runners print. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
// @ts-expect-error: plain JS without types, run by Node as it is.
import { countsOf } from "../scripts/run-steps.mjs";

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
