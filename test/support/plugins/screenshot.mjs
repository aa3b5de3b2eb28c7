// `executeServerCommand("screenshot", { name, selector? })`: saves a PNG of the element matching `selector` (CSS,
// pierces open shadow roots; default: the whole page) to test-results/screenshots/<name>.png, so a person can look
// at every element in every theme after a test run. Returns { path }.
//
// `executeServerCommand("screenshot-png", { selector, maskInFrame? })`: returns { png } (base64) of the element
// matching `selector`; when that element is an iframe, `maskInFrame` names elements inside it to paint over (text
// that depends on when the frame rendered, such as a countdown). Returns { unsupported } when the browser was not
// started by a Playwright launcher, which is what takes the picture.
import { mkdir } from "node:fs/promises";
import path from "node:path";

const outDir = path.resolve("test-results/screenshots");

export function screenshotPlugin() {
  return {
    name: "screenshot",
    async executeCommand({ command, payload, session }) {
      if (command === "screenshot-png") return screenshotPng(payload, session);
      if (command !== "screenshot") return undefined;
      const { name, selector } = payload ?? {};
      if (typeof name !== "string" || !/^[\w.-]+$/.test(name)) throw new Error("screenshot: name must match [\\w.-]+");
      const page = session.browser.getPage(session.id);
      await mkdir(outDir, { recursive: true });
      const file = path.join(outDir, `${name}.png`);
      if (typeof selector === "string")
        await page.locator(selector).first().screenshot({ path: file, animations: "disabled" });
      else await page.screenshot({ path: file, animations: "disabled" });
      return { path: file };
    },
  };
}

async function screenshotPng(payload, session) {
  const { selector, maskInFrame } = payload ?? {};
  if (typeof selector !== "string") throw new Error("screenshot-png: selector must be a string");
  // Puppeteer's launcher has getPage too, with another API; WebDriver's has none.
  const page = typeof session.browser.getPage === "function" ? session.browser.getPage(session.id) : undefined;
  if (typeof page?.frameLocator !== "function") {
    return { unsupported: `${session.browser.name ?? "this launcher"} is not a Playwright launcher` };
  }
  const mask = typeof maskInFrame === "string" ? [page.frameLocator(selector).locator(maskInFrame)] : [];
  const png = await page.locator(selector).first().screenshot({ animations: "disabled", caret: "hide", mask });
  return { png: png.toString("base64") };
}
