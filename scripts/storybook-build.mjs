// The workshop, built: `storybook build` of demo/.storybook into `out` (a few seconds), for the tests that open
// Storybook's own frames (test/support/plugins/storybook.mjs in every engine, test/e2e/storybook.test.ts for the
// manager's panels). Plain JS so the test runner's plugins can import it without a build.
// `node scripts/storybook-build.mjs <out>` builds it into demo/<out>: the test command's workshop step, whose folder
// the later steps then open (PI_STORYBOOK_BUILT, see builtStorybook) instead of each building its own.

import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
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

/**
 * The folder under demo/ that the test command's workshop step built Storybook into (PI_STORYBOOK_BUILT), or
 * undefined when this run has none and must build its own.
 */
export function builtStorybook() {
  const out = process.env.PI_STORYBOOK_BUILT;
  if (!out) return undefined;
  if (!existsSync(resolve(DEMO, out, "index.json")))
    throw new Error(`PI_STORYBOOK_BUILT=${out}, but demo/${out} holds no built Storybook (no index.json)`);
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [out] = process.argv.slice(2);
  if (!out) {
    console.error("usage: node scripts/storybook-build.mjs <folder under demo/>");
    process.exit(2);
  }
  await buildStorybook(out);
  console.log(`Storybook built into demo/${out}`);
}
