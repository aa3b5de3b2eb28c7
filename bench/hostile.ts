/**
 * Hostile model and tool output (hostile.json, issue #33) in Chromium, Firefox and WebKit: for each case of
 * hostile-page.ts, while the real elements render it (the build, bundled), the longest gap between two animation
 * frames (every engine) and, in Chromium, the longest main-thread task and the total blocking time (each long task's
 * time past 50 ms), as shipped ("after") and, for pi-markdown's cases, with its limits off ("before", at a smaller
 * size where the full one would take minutes). Chromium through playwright-core, Firefox through puppeteer-core
 * (WebDriver BiDi), WebKit's MiniBrowser through WebKitWebDriver on an Xvfb display: the browsers the tests use
 * (scripts/browsers.mjs). `longestTaskMsAfter` is Chromium's worst longest task as shipped, `longestFrameGapMsAfter`
 * each engine's worst frame gap: the goal is no task over 50 ms. `loadAverage` is the host's 1-minute load before
 * and after. BENCH_HOSTILE_ENGINES="chromium,firefox" narrows the engines; BENCH_HOSTILE_CASES="a|b" the cases.
 */
import { loadavg } from "node:os";
import puppeteer from "puppeteer-core";
import { remote } from "webdriverio";
import { firefoxLaunchOptions, startWebKitDriver, webkitCapabilities } from "../scripts/browsers.mjs";
import { openBundledPage, serveBundledPage } from "./chromium-page.js";
import { buildTypeScript } from "./size.js";

export const goals = { longestTaskMsAfter: { max: 50 } };

interface Figures {
  longestTaskMs?: number;
  longestFrameGapMs: number;
}
type Cases = Record<string, { after: Figures; before?: Figures }>;

/**
 * The "before" cases run in Chromium; in Firefox and WebKit only with BENCH_HOSTILE_BEFORE=all (they take minutes
 * there: 20,000 characters of `*a*b` before the limits kept WebKit busy for 26 s).
 */
const beforeEverywhere = process.env.BENCH_HOSTILE_BEFORE === "all";

const PAGE = new URL("./hostile-page.ts", import.meta.url);
/** A bound on one engine's whole run (every case), against a browser that hangs. */
const ENGINE_BOUND_MS = 30 * 60_000;

async function chromiumCases(only: string[] | undefined): Promise<Cases> {
  const bench = await openBundledPage(PAGE);
  try {
    const cases = (await bench.page.evaluate(
      (o) => (globalThis as unknown as { benchHostile(o: string[] | undefined): Promise<Cases> }).benchHostile(o),
      only,
    )) as Cases;
    if (bench.errors.length > 0) throw new Error(`The page threw during the benchmark: ${bench.errors.join("; ")}`);
    return cases;
  } finally {
    await bench.close();
  }
}

async function firefoxCases(url: string, only: string[] | undefined): Promise<Cases> {
  const browser = await puppeteer.launch({ ...firefoxLaunchOptions(), protocolTimeout: ENGINE_BOUND_MS });
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(String(error)));
    await page.goto(url, { waitUntil: "load" });
    await page.waitForFunction(() => "benchHostile" in globalThis);
    const cases = (await page.evaluate(
      (o, b) =>
        (globalThis as unknown as { benchHostile(o: string[] | undefined, b: boolean): Promise<Cases> }).benchHostile(
          o,
          b,
        ),
      only,
      beforeEverywhere,
    )) as Cases;
    if (errors.length > 0) throw new Error(`The page threw during the benchmark: ${errors.join("; ")}`);
    return cases;
  } finally {
    await browser.close();
  }
}

async function webkitCases(url: string, only: string[] | undefined): Promise<Cases> {
  const driver = await startWebKitDriver();
  try {
    const browser = await remote({
      hostname: driver.hostname,
      port: driver.port,
      capabilities: webkitCapabilities(),
      logLevel: "error",
      connectionRetryTimeout: ENGINE_BOUND_MS,
      connectionRetryCount: 0,
    });
    try {
      await browser.setTimeout({ script: ENGINE_BOUND_MS });
      await browser.url(url);
      await browser.waitUntil(() => browser.execute(() => "benchHostile" in globalThis), { timeout: 60_000 });
      return (await browser.executeAsync(
        (o: string[] | undefined, b: boolean, done: (cases: Cases) => void) => {
          (globalThis as unknown as { benchHostile(o: string[] | undefined, b: boolean): Promise<Cases> })
            .benchHostile(o, b)
            .then(done);
        },
        only,
        beforeEverywhere,
      )) as Cases;
    } finally {
      await browser.deleteSession();
    }
  } finally {
    await driver.stop();
  }
}

export async function run(): Promise<object> {
  buildTypeScript();
  const before = loadavg()[0]!;
  const only = process.env.BENCH_HOSTILE_CASES?.split("|");
  const wanted = (process.env.BENCH_HOSTILE_ENGINES ?? "chromium,firefox,webkit").split(",");
  const engines: Record<string, Cases> = {};
  const served = await serveBundledPage(PAGE);
  try {
    for (const engine of wanted) {
      console.log(`  ${engine}:`);
      if (engine === "chromium") engines.chromium = await chromiumCases(only);
      else if (engine === "firefox") engines.firefox = await firefoxCases(served.url, only);
      else if (engine === "webkit") engines.webkit = await webkitCases(served.url, only);
      else throw new Error(`Unknown engine in BENCH_HOSTILE_ENGINES: ${engine}`);
      for (const [name, { after, before }] of Object.entries(engines[engine]!)) {
        console.log(`    ${name}: after ${JSON.stringify(after)}${before ? `, before ${JSON.stringify(before)}` : ""}`);
      }
    }
  } finally {
    served.close();
  }
  const worst = (cases: Cases, figure: keyof Figures) =>
    Math.max(...Object.entries(cases).map(([name, { after }]) => (name === "idle" ? 0 : (after[figure] ?? 0))));
  return {
    ...(engines.chromium ? { longestTaskMsAfter: worst(engines.chromium, "longestTaskMs") } : {}),
    longestFrameGapMsAfter: Object.fromEntries(
      Object.entries(engines).map(([engine, cases]) => [engine, worst(cases, "longestFrameGapMs")]),
    ),
    engines,
    loadAverage: { before, after: loadavg()[0]! },
  };
}
