/**
 * test/engines.mjs, which decides the engines each browser test file runs in, against the files there are and
 * against docs/testing.md, where a newcomer reads where a new test goes.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { browserTestFiles, ENGINE_EXCEPTIONS, enginesFor, enginesTable, plan } from "./engines.mjs";

describe("which engines each browser test file runs in", () => {
  it("names only files that exist, each once", () => {
    const files = browserTestFiles();
    const named = ENGINE_EXCEPTIONS.flatMap((rule) => rule.files);
    assert.deepEqual(
      named.filter((file) => !files.includes(file)),
      [],
    );
    assert.equal(new Set(named).size, named.length);
  });

  it("runs every file in at least one engine, and the real-pi smoke in each engine the matrix skips", () => {
    const planned = [...plan().values()].flat();
    assert.deepEqual(planned.sort(), [...browserTestFiles()].sort());
    const matrix = plan(["firefox", "webkit"]);
    const inOthers = [...matrix.values()].flat().filter((file) => file.includes("real-pi"));
    assert.deepEqual(inOthers, ["test/e2e/browser/smoke-real-pi.test.ts"]);
    assert.equal(plan(["chromium"], "smoke-real-pi").size, 0);
  });

  it("starts the whole-page files, the longest, first, and the real-pi files last", () => {
    const files = browserTestFiles();
    const part = (file: string) => (file.startsWith("test/browser/") ? 0 : file.startsWith("packages/") ? 1 : 2);
    const parts = files.map(part);
    assert.deepEqual(parts, [...parts].sort());
    assert.deepEqual(new Set(parts), new Set([0, 1, 2]));
    assert.ok(files.filter((file) => part(file) === 2).every((file) => file.startsWith("test/e2e/browser/")));
    // Within each part, in name order; one plan keeps the order for every engine.
    for (const p of [0, 1, 2]) {
      const inPart = files.filter((file) => part(file) === p);
      assert.deepEqual(inPart, [...inPart].sort());
    }
    assert.deepEqual(
      plan(["chromium"]).get("chromium"),
      files.filter((file) => enginesFor(file).includes("chromium")),
    );
  });

  it("is the table docs/testing.md shows (regenerate it with `node test/engines.mjs`)", () => {
    const doc = readFileSync(new URL("../docs/testing.md", import.meta.url), "utf8");
    const block = /<!-- engines:start -->\n([\s\S]*?)\n<!-- engines:end -->/.exec(doc)?.[1];
    assert.equal(block, enginesTable());
  });
});
