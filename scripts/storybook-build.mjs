// The workshop, built: `storybook build` of demo/.storybook into `out` (a few seconds), for the tests that open
// Storybook's own frames (test/support/plugins/storybook.mjs in every engine, test/e2e/storybook.test.ts for the
// manager's panels). Plain JS so the test runner's plugins can import it without a build.

import { execFile } from "node:child_process";
import { rm } from "node:fs/promises";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const DEMO = fileURLToPath(new URL("../demo/", import.meta.url));

/** @param {string} out a directory, absolute or relative to demo/; emptied first. */
export async function buildStorybook(out) {
  await rm(resolve(DEMO, out), { recursive: true, force: true });
  await promisify(execFile)(`${DEMO}node_modules/.bin/storybook`, ["build", "-c", ".storybook", "-o", out, "--quiet"], {
    cwd: DEMO,
    env: { ...process.env, STORYBOOK_DISABLE_TELEMETRY: "1" },
    maxBuffer: 64 * 1024 * 1024,
  });
}
