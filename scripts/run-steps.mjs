// The test command's steps (package.json's `test`, which scripts/test.sh and so CI run): each step runs even when
// one before it failed, so one late flake does not hide every result after it; then one table says, per step,
// whether it passed, failed or was not run, its tests' counts where it has tests, and its seconds; the exit code is
// the first failure's. The last line sums the tests' counts ("Tests: N passed, N failed, N skipped").
//
// `node scripts/run-steps.mjs lint build` runs only the steps named; `--list` prints their names.

import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PNPM = ["npx", "--yes", "pnpm@12.4.2"];
/** @type {Record<string, string>} */
const SCRIPTS = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts;

/**
 * package.json's script `name` (with `args`), run as `pnpm run` runs it: in a shell, in the workspace, with its
 * node_modules/.bin first on the PATH. Not through `npx pnpm run`, which costs about 2 s of a core each time (npx,
 * then pnpm starting), a dozen times a run on a machine whose cores the steps keep busy. The build, which runs pnpm
 * itself (`pnpm --filter`), still goes through pnpm.
 * @param {string} name
 * @param {string[]} args
 * @returns {Pick<Step, "command" | "env">}
 */
function script(name, ...args) {
  const line = SCRIPTS[name];
  if (line === undefined) throw new Error(`package.json has no script "${name}"`);
  return {
    command: ["sh", "-c", [line, ...args].join(" ")],
    env: { PATH: `${join(ROOT, "node_modules", ".bin")}${delimiter}${process.env.PATH ?? ""}` },
  };
}

/**
 * The browser tests in one engine, a lane step.
 * @param {string} engine
 * @returns {Step}
 */
function browserRun(engine) {
  const { command, env } = script("test:browser");
  return {
    name: engine,
    what: "browser tests",
    command,
    env: { ...env, ENGINES: engine },
    lane: true,
  };
}

/** The end-to-end file that runs in a lane of its own (STEPS says why). */
const EXAMPLES = "test/e2e/pi-examples.test.ts";

/**
 * package.json's test:e2e for the files of test/e2e that `pick` takes (its glob's files, in its order), a lane step.
 * The two parts never run at once: the second is queued after WebKit, which starts only once the first has ended or
 * the other lane has freed.
 * @param {string} name
 * @param {string} what
 * @param {(file: string) => boolean} pick
 * @returns {Step}
 */
function e2eRun(name, what, pick) {
  const { command, env } = script("test:e2e");
  const glob = "test/e2e/*.test.ts";
  const line = command[2] ?? "";
  if (!line.endsWith(` ${glob}`)) throw new Error(`package.json's test:e2e no longer ends with ${glob}: ${line}`);
  const files = readdirSync(join(ROOT, "test", "e2e"))
    .filter((file) => file.endsWith(".test.ts"))
    .sort()
    .map((file) => `test/e2e/${file}`)
    .filter(pick);
  return { name, what, command: ["sh", "-c", `${line.slice(0, -glob.length)}${files.join(" ")}`], env, lane: true };
}

/** Where the workshop step builds Storybook (under demo/), for every later step that opens it. */
const WORKSHOP_OUT = "storybook-static/suite";

/**
 * A step with `alongside` starts with the one before it and runs beside it: its output is printed when it ends.
 * Consecutive steps with `lane` share LANES lanes: they start in order, each as soon as a lane is free, so a lane that
 * finishes early takes the next step instead of idling while the other finishes. The first lane's output streams; the
 * others' is printed when each ends. A step that passes `provides` its environment variables to every step after it
 * (a step run without it, or after it failed, does that work itself).
 * @typedef {{ name: string, what: string, command: string[], env?: Record<string, string>, provides?: Record<string, string>, alongside?: boolean, lane?: boolean }} Step
 * @type {Step[]}
 */
export const STEPS = [
  { name: "build", what: "the three packages, bundles, manifest", command: [...PNPM, "run", "build"] },
  { name: "typecheck", what: "tsc over packages, tests, demo, bench", ...script("typecheck") },
  // Beside typecheck, which keeps one core busy (tsc is one thread): the Node tests (which read the built packages,
  // not what typecheck checks), and checks that take a few seconds each.
  { name: "lint", what: "biome", ...script("lint"), alongside: true },
  {
    name: "docs",
    what: "docs/elements.md is up to date",
    ...script("docs", "--check"),
    alongside: true,
  },
  {
    name: "stories",
    what: "the workshop's CSF files are up to date",
    ...script("stories", "--check"),
    alongside: true,
  },
  {
    name: "workshop",
    what: "Storybook built once, for the browser and e2e tests that open it",
    command: ["node", "scripts/storybook-build.mjs", WORKSHOP_OUT],
    provides: { PI_STORYBOOK_BUILT: WORKSHOP_OUT },
    alongside: true,
  },
  { name: "node", what: "Node tests", ...script("test:node"), alongside: true },
  // Five runs in two lanes, about a core each: Chromium (which runs the real-pi matrix and bundle parity, its
  // longest) beside Firefox. Firefox ends first: pi's example extensions (the end-to-end files' longest, about as
  // long as Chromium outlasts Firefox) take its lane, so that whichever lane frees next takes WebKit and the other the
  // rest of end to end. With e2e in one piece after Firefox, WebKit always followed Chromium in one lane, which on a
  // loaded machine ended 90 s after the other (Chromium and WebKit slow down more than end to end does).
  browserRun("chromium"),
  browserRun("firefox"),
  e2eRun("examples", "pi's example extensions, end to end", (file) => file === EXAMPLES),
  browserRun("webkit"),
  e2eRun("e2e", "end to end, real pi, Node-driven", (file) => file !== EXAMPLES),
  { name: "size", what: "bundle size ceilings", ...script("size") },
];

/** How many `lane` steps run at once: one per core of the machine the suite is made for. */
export const LANES = 2;

/**
 * The counts a step's output reports, summed over its runs: the test runner's "N passed, N failed, N skipped"
 * per engine, and Node's test runner's "# pass N" / "# fail N" / "# skipped N".
 * @param {string} output
 */
export function countsOf(output) {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the test runner's progress bar writes ANSI escapes.
  const text = output.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "");
  const counts = { passed: 0, failed: 0, skipped: 0 };
  let found = false;
  // The test runner's progress line for an engine, last one wins per engine (it is rewritten as files finish).
  const perEngine = new Map();
  for (const match of text.matchAll(/^(\w+):\s.*?\|\s*(\d+) passed, (\d+) failed(?:, (\d+) skipped)?\s*$/gm)) {
    perEngine.set(match[1], { passed: +match[2], failed: +match[3], skipped: +(match[4] ?? 0) });
  }
  for (const engine of perEngine.values()) {
    found = true;
    counts.passed += engine.passed;
    counts.failed += engine.failed;
    counts.skipped += engine.skipped;
  }
  for (const [key, name] of [
    ["passed", "pass"],
    ["failed", "fail"],
    ["skipped", "skipped"],
  ]) {
    for (const match of text.matchAll(new RegExp(`^ℹ ${name} (\\d+)$`, "gm"))) {
      found = true;
      counts[key] += +match[1];
    }
  }
  return found ? counts : undefined;
}

/**
 * The lines of a step's output that name a failed test: the browser runner's "FAILED …" lines
 * (test/support/failure-reporter.mjs) and, from Node's test runner's closing "failing tests" list, each test's place,
 * name and its error's first line (the same failures reported where they happen are left out). At most `max`.
 * @param {string} output
 */
export function failuresOf(output, max = 30) {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the runners colour their output with ANSI escapes.
  const text = output.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "");
  const browser = text.match(/^FAILED .*$/gm) ?? [];
  const list = text.split(/^✖ failing tests:$/m)[1] ?? "";
  const node = [...list.matchAll(/^test at (.+)\n✖ (.+?)(?: \([\d.]+m?s\))?\n\s*(.*)$/gm)].map(
    ([, where, name, error]) => `FAILED ${where} › ${name}: ${error.length > 240 ? `${error.slice(0, 239)}…` : error}`,
  );
  const lines = [...new Set([...browser, ...node])];
  return lines.length > max ? [...lines.slice(0, max), `… and ${lines.length - max} more`] : lines;
}

/** What the steps that passed provide to those after them. */
const provided = {};

/**
 * Where the steps' output and the command's own lines go: this process's stdout and stderr, or (a test of the lanes)
 * somewhere else. A test under Node's runner must not write to its stdout: the runner reads it as its own serialized
 * frames, and a chunk written between two of them makes it fail the file ("Unable to deserialize cloned data").
 * @typedef {{ out: { write(chunk: string | Buffer): unknown }, err: { write(chunk: string | Buffer): unknown } }} Output
 */
/** @type {Output} */
const STDIO = { out: process.stdout, err: process.stderr };

/**
 * Runs `step`, its output going to `output` as it comes, or, with `buffered`, kept and printed by `print()`.
 * @param {Step} step
 * @param {Output} output
 */
function run(step, buffered = false, output = STDIO) {
  return new Promise((resolve) => {
    const started = performance.now();
    let printed = "";
    /** @type {[Output["out"], Buffer][]} */
    const kept = [];
    const print = () => {
      for (const [sink, chunk] of kept.splice(0)) sink.write(chunk);
    };
    const child = spawn(step.command[0], step.command.slice(1), {
      cwd: ROOT,
      env: { ...process.env, ...provided, ...step.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    for (const [stream, sink] of [
      [child.stdout, output.out],
      [child.stderr, output.err],
    ]) {
      stream.on("data", (chunk) => {
        if (buffered) kept.push([sink, chunk]);
        else sink.write(chunk);
        printed += chunk;
        // Only the counts are read from it: keep the tail, where they are.
        if (printed.length > 4_000_000) printed = printed.slice(-2_000_000);
      });
    }
    const done = (code) =>
      resolve({
        code,
        started,
        seconds: (performance.now() - started) / 1000,
        counts: countsOf(printed),
        failures: code === 0 ? [] : failuresOf(printed),
        print,
      });
    // No exit code: ended by a signal, a failure.
    child.once("close", (code) => done(code ?? 1));
    child.once("error", (error) => {
      console.error(error);
      done(1);
    });
  });
}

/** Runs `first` with its output streaming and `beside` next to it, theirs printed when all have ended. */
async function runBeside([first, ...beside]) {
  const say = (line) => STDIO.out.write(`${line}\n`);
  for (const step of beside) say(`\n══ ${step.name}: ${step.what} (beside ${first.name}; printed when it ends) ══`);
  say(`\n══ ${first.name}: ${first.what} ══\n`);
  const done = await Promise.all([run(first), ...beside.map((step) => run(step, true))]);
  return done.map((result, i) => {
    const step = [first, ...beside][i];
    if (i > 0) {
      say(`\n══ ${step.name}: ${step.what} (ran beside ${first.name}) ══\n`);
      result.print();
    }
    return { step, ...result };
  });
}

/**
 * Runs `steps` in LANES lanes, in order, each as soon as a lane is free. The first step's output streams; each other
 * step's is printed when it ends (a line says when each starts). Results in the steps' order. All of it goes to
 * `output`.
 * @param {Output} output
 */
export async function runLanes(steps, output = STDIO) {
  const say = (line) => output.out.write(`${line}\n`);
  const results = new Array(steps.length);
  let next = 0;
  const lane = async () => {
    while (next < steps.length) {
      const i = next++;
      const step = steps[i];
      const streamed = i === 0;
      say(`\n══ ${step.name}: ${step.what} (started in a lane${streamed ? "" : "; printed when it ends"}) ══\n`);
      const result = await run(step, !streamed, output);
      if (!streamed) {
        say(`\n══ ${step.name}: ${step.what} (ended) ══\n`);
        result.print();
      }
      say(`\n══ ${step.name} ${result.code === 0 ? "passed" : "FAILED"} in ${result.seconds.toFixed(0)} s ══\n`);
      results[i] = { step, ...result };
    }
  };
  await Promise.all(Array.from({ length: Math.min(LANES, steps.length) }, lane));
  return results;
}

/** Runs `names` (every step when empty) and exits as the header says. */
async function main(names) {
  const args = names;
  if (args.includes("--list")) {
    for (const step of STEPS) console.log(`${step.name.padEnd(18)} ${step.what}`);
    process.exit(0);
  }
  const unknown = args.filter((name) => !STEPS.some((step) => step.name === name));
  if (unknown.length > 0) {
    console.error(`No such step: ${unknown.join(", ")}. The steps: ${STEPS.map((step) => step.name).join(", ")}.`);
    process.exit(2);
  }
  const chosen = args.length > 0 ? STEPS.filter((step) => args.includes(step.name)) : STEPS;

  // Steps in batches: a step and those that run alongside it, or a run of lane steps.
  const batches = [];
  for (const step of chosen) {
    const last = batches.at(-1);
    if (step.alongside && last && !last.lanes) last.steps.push(step);
    else if (step.lane && last?.lanes) last.steps.push(step);
    else batches.push({ lanes: Boolean(step.lane), steps: [step] });
  }
  const results = [];
  const started = performance.now();
  for (const batch of batches) {
    const done = batch.lanes ? await runLanes(batch.steps) : await runBeside(batch.steps);
    for (const { step, code } of done) if (code === 0) Object.assign(provided, step.provides);
    results.push(...done);
  }
  const total = (performance.now() - started) / 1000;

  const rows = results.map(({ step, code, seconds, counts, started: at }) => [
    step.name,
    code === 0 ? "passed" : `FAILED (exit ${code})`,
    counts ? `${counts.passed} / ${counts.failed} / ${counts.skipped}` : "",
    seconds.toFixed(0),
    ((at - started) / 1000).toFixed(0),
  ]);
  rows.push(["total", "", "", total.toFixed(0), ""]);
  const header = ["step", "result", "tests passed / failed / skipped", "seconds", "started at"];
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  const line = (cells) =>
    cells.map((cell, i) => (i >= 3 ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join("  ");
  console.log(`\n${line(header)}\n${widths.map((w) => "─".repeat(w)).join("  ")}`);
  for (const row of rows) console.log(line(row));

  // CI keeps the log's tail: say here which tests failed, not only in the middle of the log.
  for (const { step, failures } of results.filter((result) => result.failures.length > 0)) {
    console.log(`\nWhat failed in ${step.name}:\n${failures.join("\n")}`);
  }

  const sum = { passed: 0, failed: 0, skipped: 0 };
  for (const { counts } of results) for (const key of Object.keys(sum)) sum[key] += counts?.[key] ?? 0;
  const failedSteps = results.filter((result) => result.code !== 0);
  // A failed step with no failed test (a lint error, a crash) still counts as a failure in the closing line.
  const failed = sum.failed + failedSteps.filter((result) => !result.counts?.failed).length;
  console.log(`\nTests: ${sum.passed} passed, ${failed} failed, ${sum.skipped} skipped`);
  process.exit(failedSteps[0]?.code ?? 0);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main(process.argv.slice(2));
