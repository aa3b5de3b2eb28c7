/**
 * `pnpm bench [name...]`: runs each registered benchmark (all, or the named ones) and writes its figures to
 * bench/results/<name>.json. A benchmark is a module next to this file exporting
 *   run(context): Promise<object>           the figures for <name>.json
 *   goals?: { [figure]: { min?; max? } }    printed as met / missed (a benchmark never fails the run for a goal)
 * and may write further files with context.writeResult(name, figures). A registered module that does not exist
 * yet is skipped. Benchmarks are not tests: nothing here asserts on time.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Add a benchmark here: its results file name and its module. */
const benchmarks = [
  { name: "core", module: "./core.ts" },
  { name: "elements", module: "./elements.ts" },
  { name: "size", module: "./size.ts" },
  { name: "bridge", module: "./bridge.ts" },
  { name: "conversation", module: "./conversation.ts" },
  { name: "transcript", module: "./transcript.ts" },
  { name: "hostile", module: "./hostile.ts" },
];

export type Goals = Record<string, { min?: number; max?: number }>;
export interface BenchContext {
  /** Writes bench/results/<name>.json (for a benchmark that reports more than one file, e.g. size.json). */
  writeResult(name: string, figures: object): void;
}
interface BenchModule {
  run(context: BenchContext): Promise<object>;
  goals?: Goals;
}

const resultsDir = fileURLToPath(new URL("./results/", import.meta.url));
mkdirSync(resultsDir, { recursive: true });

function writeResult(name: string, figures: object): void {
  const file = `${resultsDir}${name}.json`;
  writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
  console.log(`  wrote ${file}`);
}

function report(figures: Record<string, unknown>, goals: Goals = {}): void {
  for (const [figure, value] of Object.entries(figures)) {
    if (typeof value !== "number") continue;
    const goal = goals[figure];
    const met = goal && (goal.min === undefined || value >= goal.min) && (goal.max === undefined || value <= goal.max);
    const target = goal
      ? ` (goal ${goal.min !== undefined ? `≥ ${goal.min}` : `≤ ${goal.max}`}: ${met ? "met" : "MISSED"})`
      : "";
    console.log(`  ${figure}: ${Number.isInteger(value) ? value : value.toFixed(3)}${target}`);
  }
}

const only = process.argv.slice(2);
const unknown = only.filter((name) => !benchmarks.some((b) => b.name === name));
if (unknown.length > 0) {
  console.error(`Unknown benchmark(s): ${unknown.join(", ")}. Known: ${benchmarks.map((b) => b.name).join(", ")}`);
  process.exit(2);
}
let failed = false;
for (const { name, module } of benchmarks) {
  if (only.length > 0 && !only.includes(name)) continue;
  const url = new URL(module, import.meta.url);
  if (!existsSync(url)) {
    console.log(`${name}: skipped (${module} does not exist yet)`);
    continue;
  }
  console.log(`${name}: running`);
  try {
    const bench = (await import(url.href)) as BenchModule;
    const figures = await bench.run({ writeResult });
    writeResult(name, figures);
    report(figures as Record<string, unknown>, bench.goals);
  } catch (error) {
    failed = true;
    console.error(`${name}: failed\n`, error);
  }
}
process.exitCode = failed ? 1 : 0;
