// `executeServerCommand("screenshot", { name, selector? })`: saves a PNG of the element matching `selector` (CSS,
// pierces open shadow roots; default: the whole page) to test-results/screenshots/<name>.png, so a person can look
// at every element in every theme after a test run. Returns { path }.
import { mkdir } from "node:fs/promises";
import path from "node:path";

const outDir = path.resolve("test-results/screenshots");

export function screenshotPlugin() {
  return {
    name: "screenshot",
    async executeCommand({ command, payload, session }) {
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
