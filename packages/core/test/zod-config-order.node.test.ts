/**
 * zod's jitless switch (src/protocol/zod.ts) must run before any schema is built, in the source modules and in any
 * bundle of them. Each schema module imports zod/mini itself (so bundlers can tree-shake it), which makes the order a
 * per-module rule: `import "./zod.js"` comes before the zod/mini import, and package.json keeps that bare import
 * from being dropped as side-effect free. The CSP browser test checks the behaviour; this pins the rule down.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { config } from "zod/mini";

const srcDir = new URL("../src/", import.meta.url);
const sources = (readdirSync(srcDir, { recursive: true }) as string[])
  .filter((path) => path.endsWith(".ts"))
  .map((path) => ({ path, text: readFileSync(new URL(path, srcDir), "utf8") }));

describe("zod configuration order", () => {
  it("every core module that imports zod/mini imports the jitless switch before it", () => {
    const schemaModules = sources.filter(
      ({ path, text }) => /from "zod\/mini"/.test(text) && !/protocol[\\/]zod\.ts$/.test(path),
    );
    assert.ok(schemaModules.length >= 4, "the protocol schema modules import zod/mini");
    for (const { path, text } of schemaModules) {
      const jitless = text.search(/^import "\.\/zod\.js";$/m);
      const zod = text.search(/^import .* from "zod\/mini";$/m);
      assert.ok(jitless >= 0 && jitless < zod, `${path} imports zod/mini before ./zod.js`);
    }
  });

  it("package.json declares the switch a side effect, so bundlers keep the bare import", () => {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      sideEffects: unknown;
    };
    assert.ok(Array.isArray(pkg.sideEffects));
    assert.ok(pkg.sideEffects.includes("./dist/protocol/zod.js"));
  });

  it("importing the core switches zod to jitless", async () => {
    await import("../src/index.js");
    assert.equal(config().jitless, true);
  });
});
