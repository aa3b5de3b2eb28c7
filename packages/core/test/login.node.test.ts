/** mentionsLogin: pi's own advice to sign in, from both pi versions under test, and texts that only look like it. */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import { PI_VERSIONS } from "../../../test/support/real-pi.js";
import { mentionsLogin } from "../src/session/login.js";

/** pi's three auth-guidance texts, made by pi's own module on the Node that version runs on. */
function piGuidance(version: (typeof PI_VERSIONS)[number]): string[] {
  const module = pathToFileURL(join(version.nodeModules, version.packageName, "dist/core/auth-guidance.js")).href;
  const script = `import(${JSON.stringify(module)}).then((m) => console.log(JSON.stringify([
    m.formatNoApiKeyFoundMessage("anthropic"), m.formatNoModelSelectedMessage(), m.formatNoModelsAvailableMessage(),
  ])))`;
  return JSON.parse(execFileSync(version.node, ["-e", script], { encoding: "utf8" })) as string[];
}

describe("mentionsLogin", () => {
  for (const version of PI_VERSIONS) {
    test(`recognises pi ${version.version}'s advice to sign in`, () => {
      const texts = piGuidance(version);
      assert.equal(texts.length, 3);
      for (const text of texts) assert.equal(mentionsLogin(text), true, text);
    });
  }

  test("recognises the command quoted, in backticks, or with a provider after it", () => {
    for (const text of [
      "Configure llama.cpp with /login llama",
      "Run '/login anthropic' to re-authenticate.",
      "Use `/login` first.",
      "/login",
      "Sign in (/login) and retry",
    ]) {
      assert.equal(mentionsLogin(text), true, text);
    }
  });

  test("ignores paths, addresses and longer words that contain it", () => {
    for (const text of [
      "See https://example.com/login for details",
      "wrote /home/me/login.txt",
      "read ./docs/login",
      "the /login-helper script",
      "/logins are kept",
      "logged in with login",
      "",
    ]) {
      assert.equal(mentionsLogin(text), false, text);
    }
  });
});
