// `executeServerCommand("screenshot", { name, selector? })`: saves a PNG of the element matching `selector` (CSS,
// pierces open shadow roots; default: the whole page) to test-results/screenshots/<engine>/<name>.png, so a person
// can look at every element in every theme and engine after a test run. Returns { path }.
//
// `executeServerCommand("screenshot-png", { selector })`: returns { png } (base64) of the element matching `selector`.
// Returns { unsupported } when the browser was not started by a Playwright launcher, which is what takes the picture.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { engineOf } from "./engine.mjs";

const outDir = path.resolve("test-results/screenshots");

/** In-page: the first element matching `selector` in the document or any open shadow root below it. */
function deepQuery(selector) {
  const roots = [document];
  while (roots.length > 0) {
    const root = roots.shift();
    const found = root.querySelector(selector);
    if (found) return found;
    for (const el of root.querySelectorAll("*")) if (el.shadowRoot) roots.push(el.shadowRoot);
  }
  return document.documentElement;
}

async function capture(session, selector, file) {
  const { browser } = session;
  if (browser.type === "playwright") {
    const page = browser.getPage(session.id);
    if (typeof selector === "string")
      await page.locator(selector).first().screenshot({ path: file, animations: "disabled" });
    else await page.screenshot({ path: file, animations: "disabled" });
  } else if (browser.type === "puppeteer") {
    const page = browser.getPage(session.id);
    if (typeof selector === "string") {
      const element = await page.evaluateHandle(deepQuery, selector);
      await element.asElement().screenshot({ path: file });
    } else await page.screenshot({ path: file });
  } else if (browser.type === "webdriver") {
    // The webdriver launcher's screenshot takes a script that returns the element (WebKit's launcher,
    // test/support/webkit-launcher.mjs, crops the viewport to it: WebKitGTK's own element screenshot comes out black).
    const locator = `return (${deepQuery})(${JSON.stringify(selector ?? "html")});`;
    await writeFile(file, await browser.takeScreenshot(session.id, locator));
  } else {
    throw new Error(`screenshot: unsupported browser type ${browser.type}`);
  }
}

export function screenshotPlugin() {
  return {
    name: "screenshot",
    async executeCommand({ command, payload, session }) {
      if (command === "screenshot-png") return screenshotPng(payload, session);
      if (command !== "screenshot") return undefined;
      const { name, selector } = payload ?? {};
      if (typeof name !== "string" || !/^[\w.-]+$/.test(name)) throw new Error("screenshot: name must match [\\w.-]+");
      const dir = path.join(outDir, engineOf(session));
      await mkdir(dir, { recursive: true });
      const file = path.join(dir, `${name}.png`);
      await capture(session, selector, file);
      return { path: file };
    },
  };
}

async function screenshotPng(payload, session) {
  const { selector } = payload ?? {};
  if (typeof selector !== "string") throw new Error("screenshot-png: selector must be a string");
  // Puppeteer's launcher has getPage too, with another API; WebDriver's has none.
  const page = typeof session.browser.getPage === "function" ? session.browser.getPage(session.id) : undefined;
  if (typeof page?.locator !== "function") {
    return { unsupported: `${session.browser.name ?? "this launcher"} is not a Playwright launcher` };
  }
  const png = await page.locator(selector).first().screenshot({ animations: "disabled", caret: "hide" });
  return { png: png.toString("base64") };
}
