/**
 * The core is a library: it leaves zod's process-wide configuration as the host found it. In particular it does not
 * turn on `jitless`, which would move every other zod user in the page, or in the bridge's Node process, off zod's
 * compiled object parsers (see the README's note on strict Content-Security-Policy pages).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as z from "zod";

describe("zod's global configuration", () => {
  it("importing the core and validating with it changes nothing in it", async () => {
    const before = { ...z.config() };
    const core = await import("../src/index.js");
    assert.equal(core.ExtensionUiRequest.safeParse({ type: "extension_ui_request", id: "a" }).success, false);
    assert.deepEqual({ ...z.config() }, before);
    assert.notEqual(z.config().jitless, true);
  });
});
