// The browser tests (package.json's test:browser): the test runner once for Chromium with Firefox, then once for
// WebKit, each over every file in the engines test/engines.mjs gives it (web-test-runner.config.mjs); `--files a,b`
// (or TEST_FILES) narrows both runs to the files whose path contains a part, ENGINES to some engines, and other
// arguments go to the runner.
// Why not the three engines in one run: on two cores they starved one another. In CI-like runs WebKit (the slowest)
// still ran beside Firefox while a real pi streamed to it, and Firefox's driver once took more than the runner's 20 s
// to press a key. Measured here, the two runs take no longer: 572 s + 406 s in a fresh-clone CI run, against 1,011 s
// for the three side by side (one Firefox for the whole run then, one per file now).
// Both runs always happen, so one engine's failure does not hide another's; the exit code is the first failure's.

import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { plan } from "../test/engines.mjs";
import { engines } from "./browsers.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RUNNER = fileURLToPath(new URL("../node_modules/@web/test-runner/dist/bin.js", import.meta.url));
const GROUPS = [["chromium", "firefox"], ["webkit"]];

const wanted = engines();
// `--files a,b` is TEST_FILES (paths containing a part): the config groups files by engine, which the runner's own
// --files would bypass.
const args = process.argv.slice(2);
const at = args.indexOf("--files");
const selection = at === -1 ? (process.env.TEST_FILES ?? "") : args.splice(at, 2)[1];
let status = 0;
for (const group of GROUPS.map((names) => names.filter((name) => wanted.includes(name)))) {
  if (group.length === 0) continue;
  if (plan(group, selection).size === 0) {
    console.log(`\n── No browser test file to run in ${group.join(" and ")} ──`);
    continue;
  }
  console.log(`\n── Browser tests in ${group.join(" and ")} ──\n`);
  const code = await new Promise((resolve) => {
    // Under tsx, as the config needs: test/support/plugins/real-pi.mjs loads the bridge's TypeScript.
    const child = spawn(process.execPath, ["--import", "tsx", RUNNER, ...args], {
      cwd: ROOT,
      env: { ...process.env, ENGINES: group.join(","), TEST_FILES: selection },
      stdio: "inherit",
    });
    // No exit code: ended by a signal.
    child.once("exit", (exitCode) => resolve(exitCode ?? 1));
    child.once("error", (error) => {
      console.error(error);
      resolve(1);
    });
  });
  if (code !== 0 && status === 0) status = code;
}
process.exit(status);
