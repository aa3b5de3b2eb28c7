// Screenshots of every gallery story, the playground and the live page's empty state, in light and dark, in each
// engine: `node --import tsx scripts/screenshots.ts [outDir]` (default docs/screenshots; one folder per engine;
// ENGINES=chromium,firefox,webkit narrows it). It serves the demo with Vite, walks the sidebar, picks the theme with
// the demo's own Theme control (so no engine needs media emulation), and fails if a page throws or logs an error.
// DIRECTION=rtl takes them right to left (with the Direction control; files end in -rtl), STORIES=prompt,select/2
// keeps the routes that contain one of the words.
// Chromium runs through playwright-core, Firefox through puppeteer-core (WebDriver BiDi, headed on an Xvfb display),
// WebKit through webdriverio against WebKitWebDriver on an Xvfb display (scripts/browsers.mjs).
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import puppeteer from "puppeteer-core";
import { createServer } from "vite";
import { remote } from "webdriverio";
import { engines, firefoxLaunchOptions, startWebKitDriver, startXvfb, webkitCapabilities } from "./browsers.mjs";
import { launchOptions } from "./chromium.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const outDir = process.argv[2] ?? join(root, "docs/screenshots");
const VIEWPORT = { width: 1280, height: 720 };
const direction = process.env.DIRECTION === "rtl" ? "rtl" : "ltr";
const wanted = (process.env.STORIES ?? "").split(",").filter(Boolean);

/** What the script needs from a browser page, the same in every engine. */
interface Page {
  goto(url: string): Promise<void>;
  evaluate<T>(script: string): Promise<T>;
  screenshot(path: string): Promise<void>;
  /** Errors the page threw or logged since it opened. */
  errors: string[];
  close(): Promise<void>;
}

/** Collects uncaught errors and console.error calls in the page (used where the driver reports neither). */
const ERROR_TRAP = `if (!window.__shotErrors) { window.__shotErrors = [];
  addEventListener("error", (e) => window.__shotErrors.push(String(e.message)));
  addEventListener("unhandledrejection", (e) => window.__shotErrors.push(String(e.reason)));
  const log = console.error; console.error = (...a) => { window.__shotErrors.push(a.map(String).join(" ")); log(...a); }; }`;

async function openEngine(engine: string): Promise<Page> {
  if (engine === "chromium") {
    const browser = await chromium.launch(launchOptions());
    const page = await browser.newPage({ viewport: VIEWPORT });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`));
    page.on("console", (message) => {
      if (message.type() === "error" && !`${message.text()} ${message.location().url}`.includes("favicon"))
        errors.push(`${page.url()}: ${message.text()}`);
    });
    return {
      errors,
      goto: async (url) => void (await page.goto(url)),
      evaluate: (script) => page.evaluate(script),
      screenshot: async (path) => void (await page.screenshot({ path })),
      close: () => browser.close(),
    };
  }
  if (engine === "firefox") {
    // Headed, on its own Xvfb display: headless Firefox draws every scrollbar as a white bar (no thumb) in a dark
    // page, which no user sees; the headed browser draws them as on a desktop.
    const xvfb = await startXvfb();
    const browser = await puppeteer
      .launch({ ...firefoxLaunchOptions(), headless: false, env: { ...process.env, DISPLAY: xvfb.display } })
      .catch(async (error: unknown) => {
        await xvfb.stop();
        throw error;
      });
    const page = await browser.newPage();
    await page.setViewport(VIEWPORT);
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(`${page.url()}: ${(error as Error).message}`));
    page.on("console", (message) => {
      if (message.type() === "error" && !`${message.text()} ${message.location().url}`.includes("favicon"))
        errors.push(`${page.url()}: ${message.text()}`);
    });
    return {
      errors,
      async goto(url) {
        await page.goto(url);
        // The display's pointer rests mid-screen, over the page: park it in a corner so nothing shows as hovered.
        await page.mouse.move(VIEWPORT.width - 1, VIEWPORT.height - 1);
      },
      evaluate: (script) => page.evaluate(script) as Promise<never>,
      screenshot: async (path) => void (await page.screenshot({ path: path as `${string}.png` })),
      async close() {
        await browser.close();
        await xvfb.stop();
      },
    };
  }
  const server = await startWebKitDriver();
  const browser = await remote({
    hostname: server.hostname,
    port: server.port,
    logLevel: "error",
    capabilities: webkitCapabilities(),
  });
  // The window size includes MiniBrowser's toolbar: grow the window by it, so the page gets the same viewport.
  await browser.setWindowSize(VIEWPORT.width, VIEWPORT.height);
  const [innerWidth, innerHeight] = (await browser.execute("return [innerWidth, innerHeight]")) as [number, number];
  await browser.setWindowSize(2 * VIEWPORT.width - innerWidth, 2 * VIEWPORT.height - innerHeight);
  const page: Page = {
    errors: [],
    async goto(url) {
      await browser.navigateTo(url);
      await browser.execute(ERROR_TRAP);
    },
    evaluate: (script) => browser.execute(`return (${script})`) as Promise<never>,
    async screenshot(path) {
      page.errors.push(...((await browser.execute("return window.__shotErrors.splice(0)")) as string[]));
      await browser.saveScreenshot(path);
    },
    async close() {
      await browser.deleteSession();
      await server.stop();
    },
  };
  return page;
}

const vite = await createServer({
  configFile: join(root, "demo/vite.config.ts"),
  server: { port: 0 },
  logLevel: "warn",
});
await vite.listen();
const base = vite.resolvedUrls?.local[0] ?? "";
const problems: string[] = [];
let count = 0;

try {
  for (const engine of engines()) {
    const dir = join(outDir, engine);
    mkdirSync(dir, { recursive: true });
    const page = await openEngine(engine);
    try {
      await page.goto(base);
      await page.evaluate(`customElements.whenDefined("demo-app").then(() => true)`);
      const routes = (
        await page.evaluate<string[]>(
          `[...(document.querySelector("demo-app")?.shadowRoot?.querySelectorAll("nav a") ?? [])].map((a) => a.hash)`,
        )
      ).filter((route) => wanted.length === 0 || wanted.some((word) => route.includes(word)));
      for (const scheme of ["light", "dark"] as const) {
        for (const route of routes) {
          await page.goto(`${base}${route}`);
          // The demo's Theme control, as a user picks it; then the story plays and the elements settle.
          await page.evaluate(`(async () => {
            const app = document.querySelector("demo-app");
            await customElements.whenDefined("demo-app");
            const [theme, , direction] = app.shadowRoot.querySelectorAll(".top select");
            theme.value = ${JSON.stringify(scheme)};
            theme.dispatchEvent(new Event("change"));
            if (direction.value !== ${JSON.stringify(direction)}) {
              direction.value = ${JSON.stringify(direction)};
              direction.dispatchEvent(new Event("change"));
            }
            await new Promise((resolve) => setTimeout(resolve, 400));
            return true;
          })()`);
          const name = route.replace(/^#\//, "").replaceAll("/", "-") || "index";
          await page.screenshot(join(dir, `${name}-${scheme}${direction === "rtl" ? "-rtl" : ""}.png`));
          count++;
        }
      }
      problems.push(...page.errors.map((error) => `${engine}: ${error}`));
    } finally {
      await page.close();
    }
  }
} finally {
  await vite.close();
}

console.log(`${count} screenshots in ${outDir}/<engine>`);
if (problems.length > 0) {
  console.error(problems.join("\n"));
  process.exit(1);
}
