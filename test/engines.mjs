// Which engines each browser test file runs in (web-test-runner.config.mjs reads this; docs/testing.md lists it and
// test/engines.node.test.ts checks that it does). The rule, per file, by what the file checks:
// - what engines can differ on (focus, keys, IME, layout, scrolling, dialogs, CSS, clipboard, observers, paint, the
//   platform's WebSocket / streams / postMessage / CSP) runs in all three: every file not named below;
// - the real-pi end-to-end matrix runs in Chromium, and Firefox and WebKit each run one smoke per pi version;
// - a file whose comparison happens inside one engine, so that no engine can change its outcome, runs in one.
// Logic with no engine in it (stores, reducers, lexers, codecs, the bridge) is a *.node.test.ts, not here.

import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ALL_ENGINES } from "../scripts/browsers.mjs";

/** @type {{ files: string[], engines: string[], why: string }[]} */
export const ENGINE_EXCEPTIONS = [
  {
    files: [
      "test/e2e/browser/real-pi.test.ts",
      "test/e2e/browser/prompt-real-pi.test.ts",
      "test/e2e/browser/controls-real-pi.test.ts",
      "test/e2e/browser/transcript-real-pi.test.ts",
    ],
    engines: ["chromium"],
    why: "the real-pi matrix (both pi versions, every scenario) in one engine; what the engines differ on in these pages is covered by the elements' own files in all three and by the smoke",
  },
  {
    files: ["test/e2e/browser/smoke-real-pi.test.ts"],
    engines: ["firefox", "webkit"],
    why: "one smoke per pi version in each engine that does not run the matrix: a prompt streamed, a dialog answered by keyboard, a reload mid-answer",
  },
  {
    files: ["test/browser/bundle-parity.test.ts"],
    engines: ["chromium"],
    why: "compares the bundle with the sources in two frames of the same engine: only the build can make them differ, and no engine changes the build; Chromium also compares their screenshots",
  },
];

/** The engines `file` (relative to the repository, with forward slashes) runs in. */
export function enginesFor(file) {
  return ENGINE_EXCEPTIONS.find((rule) => rule.files.includes(file))?.engines ?? ALL_ENGINES;
}

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The files under `dir` (relative to the repository) whose names end with `suffix`; `deep` walks subfolders. */
function filesIn(dir, suffix, deep) {
  let names;
  try {
    names = readdirSync(`${ROOT}${dir}`, { recursive: deep });
  } catch {
    return [];
  }
  return names
    .map(String)
    .filter((name) => name.endsWith(suffix))
    .map((name) => `${dir}/${name.split("\\").join("/")}`);
}

// Every browser test file, in the order a run starts them: test/browser/**/*.test.ts (the bundle's parity, the stories:
// 45-100 s each, against 1-20 s for an element's file) first, so that they run beside the elements' files instead of
// ending the run alone; then packages/*/test/**/*.browser.test.ts; then test/e2e/browser/*.test.ts, the real pi's
// (started last, as before: a real pi started while every engine is starting waits longest for the processor). Each
// part sorted.
export function browserTestFiles() {
  const packages = readdirSync(`${ROOT}packages`).map((name) => `packages/${name}/test`);
  return [
    ...filesIn("test/browser", ".test.ts", true).sort(),
    ...packages.flatMap((dir) => filesIn(dir, ".browser.test.ts", true)).sort(),
    ...filesIn("test/e2e/browser", ".test.ts", false).sort(),
  ];
}

/**
 * The files to run, each with its engines: every browser test file, or those whose path contains one of `selection`'s
 * comma-separated parts (TEST_FILES), in the engines of `wanted` (ENGINES) that the file runs in.
 * @returns {Map<string, string[]>} engines (joined with "+") → files
 */
export function plan(wanted = ALL_ENGINES, selection = "") {
  const parts = selection
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  const groups = new Map();
  for (const file of browserTestFiles()) {
    if (parts.length > 0 && !parts.some((part) => file.includes(part))) continue;
    const engines = enginesFor(file).filter((engine) => wanted.includes(engine));
    if (engines.length === 0) continue;
    const key = engines.join("+");
    groups.set(key, [...(groups.get(key) ?? []), file]);
  }
  return groups;
}

/** The Markdown table docs/testing.md holds between its `engines` markers (test/engines.node.test.ts compares). */
export function enginesTable() {
  const name = { chromium: "Chromium", firefox: "Firefox", webkit: "WebKit" };
  const rows = ENGINE_EXCEPTIONS.map(
    (rule) =>
      `| ${rule.files.map((file) => `\`${file}\``).join(", ")} | ${rule.engines.map((engine) => name[engine]).join(", ")} | ${rule.why} |`,
  );
  const named = ENGINE_EXCEPTIONS.flatMap((rule) => rule.files).length;
  const everyOther = `| every other browser test file (${browserTestFiles().length - named}) | Chromium, Firefox, WebKit | what engines can differ on |`;
  return ["| file | engines | why |", "|---|---|---|", ...rows, everyOther].join("\n");
}

// `node test/engines.mjs`: prints that table.
if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(enginesTable());
