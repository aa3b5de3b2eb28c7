// Browser tests: every *.browser.test.ts under packages/ and test/browser, in three engines: Debian's Chromium
// (CHROME_PATH, through playwright-core), Firefox ESR (FIREFOX_PATH, puppeteer-core over WebDriver BiDi, headless)
// and WebKitGTK's MiniBrowser (MINIBROWSER_PATH / WEBKIT_DRIVER_PATH, WebDriver classic on an Xvfb display this
// config starts and stops). ENGINES=firefox,webkit narrows the run. Results are grouped by engine name.
// test/e2e/browser drives the real pi through the real bridge (test/support/plugins/real-pi.mjs): the runner is
// started under tsx (package.json's test:browser) so that plugin can load the bridge's TypeScript.
import { esbuildPlugin } from "@web/dev-server-esbuild";
import { chromeLauncher } from "@web/test-runner-chrome";
import { playwrightLauncher } from "@web/test-runner-playwright";
import { WebdriverLauncher } from "@web/test-runner-webdriver";
import puppeteer from "puppeteer-core";
import { Key } from "webdriverio";
import { engines, firefoxLaunchOptions, startWebKitDriver, webkitCapabilities } from "./scripts/browsers.mjs";
import { launchOptions } from "./scripts/chromium.mjs";
import { testServerPlugins } from "./test/support/wtr-plugins.mjs";

/**
 * WebKitWebDriver and its Xvfb belong to this launcher: started when the runner initialises it, stopped with it.
 * One test file at a time: with more, the webdriver launcher runs files in iframes, where keys and clicks get lost.
 */
class WebKitLauncher extends WebdriverLauncher {
  concurrency = 1;

  constructor() {
    super({ capabilities: webkitCapabilities(), logLevel: "error" });
  }

  async initialize(config, testFiles) {
    this.server = await startWebKitDriver();
    this.options.hostname = this.server.hostname;
    this.options.port = this.server.port;
    await super.initialize({ ...config, concurrency: 1 }, testFiles);
    this.name = "WebKit";
  }

  async stop() {
    await super.stop();
    await this.server?.stop();
  }

  /**
   * An element's picture (test/support/plugins/screenshot.mjs). WebKitGTK's "Take Element Screenshot" paints the
   * element in the web process into a bitmap that comes back all black here (with or without Skia CPU rendering or
   * software GL, at any Xvfb depth; without compositing or the DMA-BUF renderer the driver hangs instead), while its
   * viewport screenshot, a snapshot of the view itself, is right. So the element is scrolled into view, the viewport
   * is taken, and the page crops it to the element's box with the browser's own PNG codec. `locator` is a script
   * body that returns the element.
   */
  async takeScreenshot(_sessionId, locator) {
    const box = await this.driver.execute(`const element = (function () { ${locator} })();
      element.scrollIntoView({ block: "nearest", inline: "nearest" });
      const { x, y, width, height } = element.getBoundingClientRect();
      return { x, y, width, height };`);
    const viewport = await this.driver.takeScreenshot();
    const cropped = await this.driver.execute(`return (${cropPng})(arguments[0], arguments[1]);`, viewport, box);
    return Buffer.from(cropped, "base64");
  }

  /**
   * The runner hands a typed text over as one list of characters, and webdriverio's keys() presses every key of a
   * list down before lifting any: a character typed twice is then a key already down, and is lost ("a  b" → "a b").
   * Here each key is pressed and released on its own; modifiers ("Shift", or "Shift+Enter" written as one) are held
   * for the key that follows.
   */
  async sendKeys(sessionId, keys) {
    const pending = [];
    // The runner also splits text with split(""), cutting a character outside the BMP (emoji) into its surrogate
    // halves; they are joined again here.
    const whole = [...keys.join("")].length === keys.join("").length ? keys : joinSurrogates(keys);
    for (const key of whole.flatMap((k) => (COMBO.test(k) ? k.split("+") : [k]))) {
      if (key.length === 2 && pending.length === 0 && /^[\ud800-\udbff]/.test(key)) {
        // webdriverio's keys() refuses anything longer than one UTF-16 unit; WebDriver itself takes one character.
        await this.#typeCharacter(key);
        continue;
      }
      pending.push(key);
      if (!MODIFIERS.has(key)) await super.sendKeys(sessionId, pending.splice(0));
    }
    if (pending.length > 0) await super.sendKeys(sessionId, pending);
  }

  async #typeCharacter(character) {
    await this.driver.performActions([
      {
        type: "key",
        id: "keyboard",
        actions: [
          { type: "keyDown", value: character },
          { type: "keyUp", value: character },
        ],
      },
    ]);
  }

  /**
   * A key pressed (and held) or released on its own, for the tests of keys held since before a dialog opened. Always
   * the same input source: WebDriver releases a key only for the source that pressed it (webdriverio's action()
   * would open a new source each time, and the release would never reach the page).
   */
  async keyAction(_sessionId, type, key) {
    // A key action takes one character: named keys are WebDriver's code points (Key.Enter is "\uE007").
    const value = Object.hasOwn(Key, key) ? Key[key] : key;
    await this.driver.performActions([
      { type: "key", id: "held-keys", actions: [{ type: type === "down" ? "keyDown" : "keyUp", value }] },
    ]);
  }
}

/**
 * In the page: the part of a base64 PNG of the viewport under `box` (CSS pixels, clipped to the viewport), as a
 * base64 PNG. The canvas stays detached: the page under test is not changed.
 */
async function cropPng(png, box) {
  const image = new Image();
  image.src = `data:image/png;base64,${png}`;
  await image.decode();
  const scale = image.naturalWidth / window.innerWidth;
  const left = Math.max(0, Math.floor(box.x * scale));
  const top = Math.max(0, Math.floor(box.y * scale));
  const right = Math.min(image.naturalWidth, Math.ceil((box.x + box.width) * scale));
  const bottom = Math.min(image.naturalHeight, Math.ceil((box.y + box.height) * scale));
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, right - left);
  canvas.height = Math.max(1, bottom - top);
  canvas.getContext("2d").drawImage(image, left, top, canvas.width, canvas.height, 0, 0, canvas.width, canvas.height);
  return canvas.toDataURL("image/png").slice("data:image/png;base64,".length);
}

/** ["\ud83d", "\ude42", "a"] → ["🙂", "a"]: a high surrogate followed by a low one is one character. */
function joinSurrogates(keys) {
  const out = [];
  for (const key of keys) {
    const last = out.at(-1);
    if (last?.length === 1 && /[\ud800-\udbff]/.test(last) && /^[\udc00-\udfff]$/.test(key))
      out[out.length - 1] = last + key;
    else out.push(key);
  }
  return out;
}

const MODIFIERS = new Set(["Shift", "Control", "Alt", "Meta"]);
const COMBO = /^(?:(?:Shift|Control|Alt|Meta)\+)+.+$/;

const launchers = {
  chromium: () => playwrightLauncher({ product: "chromium", launchOptions: launchOptions() }),
  // One file at a time: Firefox pauses requestAnimationFrame in a tab that is not in front, and only the front tab
  // has focus, so files side by side would wait forever on a frame or lose focus.
  firefox: () => chromeLauncher({ puppeteer, launchOptions: firefoxLaunchOptions(), concurrency: 1 }),
  webkit: () => new WebKitLauncher(),
};

export default {
  files: ["packages/*/test/**/*.browser.test.ts", "test/browser/**/*.test.ts", "test/e2e/browser/*.test.ts"],
  nodeResolve: { exportConditions: ["browser", "development"] },
  plugins: [esbuildPlugin({ ts: true, target: "es2022", tsconfig: "tsconfig.base.json" }), ...testServerPlugins()],
  browsers: engines().map((engine) => launchers[engine]()),
  concurrency: 2,
  testFramework: { config: { timeout: 10000 } },
  // Three engines share two cores: opening a page can take longer than the default 30 s while the others run.
  browserStartTimeout: 120000,
  testsStartTimeout: 180000,
  testsFinishTimeout: 600000,
};
