// Screenshots of every gallery story, the playground and the live page's empty state, in light and dark, for the
// docs: `node --import tsx scripts/screenshots.ts [outDir]` (default docs/screenshots). It serves the demo with
// Vite, walks the sidebar, and fails if a page logs an error.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { createServer } from "vite";
import { launchOptions } from "./chromium.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const outDir = process.argv[2] ?? join(root, "docs/screenshots");
mkdirSync(outDir, { recursive: true });

const vite = await createServer({
  configFile: join(root, "demo/vite.config.ts"),
  server: { port: 0 },
  logLevel: "warn",
});
await vite.listen();
const base = vite.resolvedUrls?.local[0] ?? "";
const browser = await chromium.launch(launchOptions());
const problems: string[] = [];
let count = 0;

try {
  const probe = await browser.newPage();
  await probe.goto(base);
  await probe.waitForSelector("demo-app");
  const routes: string[] = await probe.evaluate(() =>
    [...(document.querySelector("demo-app")?.shadowRoot?.querySelectorAll("nav a") ?? [])].map(
      (a) => (a as HTMLAnchorElement).hash,
    ),
  );
  await probe.close();

  for (const scheme of ["light", "dark"] as const) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 }, colorScheme: scheme });
    page.on("pageerror", (error) => problems.push(`${page.url()}: ${error.message}`));
    page.on("console", (message) => {
      if (message.type() === "error" && !message.text().includes("favicon"))
        problems.push(`${page.url()}: ${message.text()}`);
    });
    for (const route of routes) {
      await page.goto(`${base}${route}`);
      await page.waitForTimeout(400); // the story plays and the elements settle
      const name = route.replace(/^#\//, "").replaceAll("/", "-") || "index";
      await page.screenshot({ path: join(outDir, `${name}-${scheme}.png`) });
      count++;
    }
    await page.close();
  }
} finally {
  await browser.close();
  await vite.close();
}

console.log(`${count} screenshots in ${outDir}`);
if (problems.length > 0) {
  console.error(problems.join("\n"));
  process.exit(1);
}
