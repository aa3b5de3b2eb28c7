// The quick loop (`pnpm test:quick [path …]`): the Node tests, then the browser tests in Chromium, for what a change
// touches. With paths, the tests those paths are or that import them; without, the same for the files git sees
// changed (staged, unstaged and untracked; with none, the last commit's). A test file is itself; a source file
// selects the test files that import it by its folder and name (`…/prompt/prompt.js"`); a folder, every test file under it or importing a
// module in it. `--all-node` runs every Node test instead of the selected ones; `--dry-run` only says what it would run. The whole suite is `pnpm test`.
// Browser tests are served the sources (and, for the bundles and the real-pi pages, the last `pnpm build`).

import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, extname } from "node:path";
import { fileURLToPath } from "node:url";
import { browserTestFiles } from "../test/engines.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
process.chdir(ROOT);

function nodeTestFiles() {
  const dirs = [...readdirSync("packages").map((name) => `packages/${name}/test`), "test"];
  return dirs.flatMap((dir) => {
    try {
      return readdirSync(dir)
        .filter((name) => name.endsWith(".node.test.ts"))
        .map((name) => `${dir}/${name}`);
    } catch {
      return [];
    }
  });
}

function changedFiles() {
  const git = (...args) => execFileSync("git", args, { encoding: "utf8" }).split("\n").filter(Boolean);
  const status = git("status", "--porcelain", "--untracked-files=all").map((line) =>
    line.slice(3).split(" -> ").at(-1),
  );
  return status.length > 0 ? status : git("diff", "--name-only", "HEAD~1", "HEAD");
}

/** The test files (of `tests`) that `path` selects. */
function select(path, tests) {
  const clean = path.replace(/^\.\//, "").replace(/\/$/, "");
  if (tests.includes(clean)) return [clean];
  let modules;
  try {
    modules = statSync(clean).isDirectory()
      ? readdirSync(clean, { recursive: true }).map((name) => `${clean}/${name}`)
      : [clean];
  } catch {
    return []; // deleted
  }
  const inside = tests.filter((test) => test.startsWith(`${clean}/`));
  const names = modules
    .filter((module) => /\.(ts|mjs|js)$/.test(module) && !module.endsWith(".d.ts"))
    // The module's folder and name, as an import names it (`code-block/define.js"`): a name alone, such as
    // define.js, is in every element's folder.
    .map((module) => `/${basename(dirname(module))}/${basename(module, extname(module))}.js"`);
  if (names.length === 0) return inside;
  const importing = tests.filter((test) => {
    const text = readFileSync(test, "utf8");
    return names.some((name) => text.includes(name));
  });
  return [...new Set([...inside, ...importing])];
}

const args = process.argv.slice(2);
const allNode = args.includes("--all-node");
const dryRun = args.includes("--dry-run");
const paths = args.filter((arg) => !arg.startsWith("--"));
const given = paths.length > 0 ? paths : changedFiles();
const nodeTests = nodeTestFiles();
const browserTests = browserTestFiles();
const pickedNode = allNode ? nodeTests : [...new Set(given.flatMap((path) => select(path, nodeTests)))];
const pickedBrowser = [...new Set(given.flatMap((path) => select(path, browserTests)))];

console.log(`Quick loop for: ${given.join(", ") || "(nothing changed)"}`);
console.log(`Node tests (${pickedNode.length}): ${pickedNode.join(" ") || "none"}`);
console.log(`Chromium tests (${pickedBrowser.length}): ${pickedBrowser.join(" ") || "none"}`);

if (dryRun) process.exit(0);
let status = 0;
if (pickedNode.length > 0) {
  const node = spawnSync(
    process.execPath,
    ["--import", "tsx", "--test", "--test-reporter=spec", "--test-concurrency=2", ...pickedNode],
    { stdio: "inherit" },
  );
  status ||= node.status ?? 1;
}
if (pickedBrowser.length > 0) {
  // Exact paths: TEST_FILES matches files whose path contains a part.
  const browser = spawnSync(process.execPath, ["scripts/test-browser.mjs"], {
    stdio: "inherit",
    env: { ...process.env, ENGINES: "chromium", TEST_FILES: pickedBrowser.join(",") },
  });
  status ||= browser.status ?? 1;
}
process.exit(status);
