// The test runner's launcher for WebKit: WebKitGTK's MiniBrowser through WebKitWebDriver (WebDriver classic), on an
// Xvfb display, both started when the runner initialises the launcher and stopped with it (scripts/browsers.mjs).
// It implements @web/test-runner-core's BrowserLauncher on its own webdriverio session, and answers the launcher
// calls @web/test-runner-commands makes of a launcher whose type is "webdriver" (sendKeys, sendMouse*, resetMouse)
// plus those of test/support/plugins (takeScreenshot, keyAction).
import { PNG } from "pngjs";
import { Key, remote } from "webdriverio";
import { startWebKitDriver, webkitCapabilities } from "../../scripts/browsers.mjs";

/** WebDriver's pointer buttons. */
/** How long a request for a session may go unanswered before its driver counts as hung. */
const SESSION_BOUND_MS = 20_000;
const BUTTONS = { left: 0, middle: 1, right: 2 };
const MODIFIERS = new Set(["Shift", "Control", "Alt", "Meta"]);
const COMBO = /^(?:(?:Shift|Control|Alt|Meta)\+)+.+$/;

/**
 * One browser window, one test file at a time, each in a new MiniBrowser session. (Side by side would mean iframes
 * in one window, where keys and clicks get lost.)
 * @implements {import("@web/test-runner-core").BrowserLauncher}
 */
export class WebKitLauncher {
  name = "WebKit";
  // @web/test-runner-commands drives keys and the mouse through the launcher's methods for this type.
  type = "webdriver";
  concurrency = 1;

  /** @type {Awaited<ReturnType<typeof startWebKitDriver>> | undefined} */
  #server;
  /** @type {WebdriverIO.Browser | undefined} */
  #browser;
  /** Test session id → the URL of its page, while the session runs. */
  #urls = new Map();
  /** The navigation of the running session, awaited when it stops. */
  #navigation = Promise.resolve();

  async initialize() {
    this.#server = await startWebKitDriver();
  }

  async stop() {
    try {
      await this.#browser?.deleteSession();
    } finally {
      this.#browser = undefined;
      await this.#server?.stop();
      this.#server = undefined;
    }
  }

  /**
   * Each test file gets a MiniBrowser of its own (a session takes about 0.3 s): WebKit's web process kept about
   * 30 MB of every Storybook preview frame the story tests opened and removed, 4 GB by the end of that file, and a
   * later file's page was then lost with the process. The runner hears that the page started from the page itself,
   * so this only starts the navigation (WebDriver's answers it at the page's load event); a navigation that failed
   * is reported when the session stops.
   */
  async startSession(sessionId, url) {
    await this.#browser?.deleteSession().catch(() => {});
    this.#browser = undefined;
    const browser = await this.#newSession();
    this.#browser = browser;
    this.#urls.set(sessionId, url);
    this.#navigation = browser.navigateTo(url).then(() => undefined);
    // Reported by stopSession; not an unhandled rejection meanwhile.
    this.#navigation.catch(() => {});
  }

  /**
   * A MiniBrowser session. In about one CI-like run in two WebKitWebDriver takes the request for a session and never
   * answers; such a driver is not asked again: it is stopped with its display, a new one is started, and the session
   * is asked of it, twice at most. A session takes about 0.3 s, so the wait for one is bounded at SESSION_BOUND_MS
   * (each hang cost a whole minute when it was the bound of every command).
   */
  async #newSession() {
    for (let attempt = 1; ; attempt++) {
      const server = this.#server;
      if (!server) throw new Error("The WebKit launcher is not initialised (or already stopped).");
      let bound;
      try {
        const session = remote({
          hostname: server.hostname,
          port: server.port,
          capabilities: webkitCapabilities(),
          logLevel: "error",
          // A bound against a hung driver: no command here should take a minute.
          connectionRetryTimeout: 60000,
          connectionRetryCount: 0,
        });
        // Stopping the driver below ends the request; its rejection is not unhandled meanwhile.
        session.catch(() => {});
        const hung = new Promise((_, reject) => {
          bound = setTimeout(
            () => reject(new Error(`no answer to the request for a session within ${SESSION_BOUND_MS / 1000} s`)),
            SESSION_BOUND_MS,
          );
        });
        return await Promise.race([session, hung]);
      } catch (error) {
        if (attempt > 2) throw error;
        console.warn(`WebKit: no session from WebKitWebDriver (${error}); starting a new driver`);
        this.#server = undefined;
        await server.stop();
        this.#server = await startWebKitDriver();
      } finally {
        clearTimeout(bound);
      }
    }
  }

  isActive(sessionId) {
    return this.#urls.has(sessionId);
  }

  getBrowserUrl(sessionId) {
    return this.#urls.get(sessionId);
  }

  /** The file's browser is closed, so nothing of its page keeps running. No coverage is collected in WebKit. */
  async stopSession(sessionId) {
    const browser = this.#session();
    try {
      await this.#navigation;
    } finally {
      this.#urls.delete(sessionId);
      this.#browser = undefined;
      await browser.deleteSession();
    }
    return {};
  }

  async startDebugSession() {
    throw new Error("WebKit runs on a virtual display here: there is no window to debug in.");
  }

  sendMouseMove(_sessionId, x, y) {
    return this.#pointer([{ type: "pointerMove", duration: 0, x, y }]);
  }

  sendMouseClick(_sessionId, x, y, button = "left") {
    return this.#pointer([
      { type: "pointerMove", duration: 0, x, y },
      { type: "pointerDown", button: BUTTONS[button] },
      { type: "pointerUp", button: BUTTONS[button] },
    ]);
  }

  sendMouseDown(_sessionId, button = "left") {
    return this.#pointer([{ type: "pointerDown", button: BUTTONS[button] }]);
  }

  sendMouseUp(_sessionId, button = "left") {
    return this.#pointer([{ type: "pointerUp", button: BUTTONS[button] }]);
  }

  resetMouse(_sessionId) {
    return this.#pointer([
      ...Object.values(BUTTONS).map((button) => ({ type: "pointerUp", button })),
      { type: "pointerMove", duration: 0, x: 0, y: 0 },
    ]);
  }

  /**
   * The runner hands a typed text over as one list of characters, and webdriverio's keys() presses every key of a
   * list down before lifting any: a character typed twice is then a key already down, and is lost ("a  b" → "a b").
   * Here each key is pressed and released on its own; modifiers ("Shift", or "Shift+Enter" written as one) are held
   * for the key that follows.
   */
  async sendKeys(_sessionId, keys) {
    const browser = this.#session();
    const pending = [];
    // The runner also splits text with split(""), cutting a character outside the BMP (emoji) into its surrogate
    // halves; they are joined again here.
    const whole = [...keys.join("")].length === keys.join("").length ? keys : joinSurrogates(keys);
    for (const key of whole.flatMap((k) => (COMBO.test(k) ? k.split("+") : [k]))) {
      if (key.length === 2 && pending.length === 0 && /^[\ud800-\udbff]/.test(key)) {
        // webdriverio's keys() refuses anything longer than one UTF-16 unit; WebDriver itself takes one character.
        await this.#keys("keyboard", [
          { type: "keyDown", value: key },
          { type: "keyUp", value: key },
        ]);
        continue;
      }
      pending.push(key);
      if (!MODIFIERS.has(key)) await browser.keys(pending.splice(0));
    }
    if (pending.length > 0) await browser.keys(pending);
  }

  /**
   * A key pressed (and held) or released on its own, for the tests of keys held since before a dialog opened. Always
   * the same input source: WebDriver releases a key only for the source that pressed it (webdriverio's action()
   * would open a new source each time, and the release would never reach the page).
   */
  async keyAction(_sessionId, type, key) {
    // A key action takes one character: named keys are WebDriver's code points (Key.Enter is "\uE007").
    const value = Object.hasOwn(Key, key) ? Key[key] : key;
    await this.#keys("held-keys", [{ type: type === "down" ? "keyDown" : "keyUp", value }]);
  }

  /**
   * An element's picture (test/support/plugins/screenshot.mjs). WebKitGTK's "Take Element Screenshot" paints the
   * element in the web process into a bitmap that comes back all black here (with or without Skia CPU rendering or
   * software GL, at any Xvfb depth; without compositing or the DMA-BUF renderer the driver hangs instead), while its
   * viewport screenshot, a snapshot of the view itself, is right. So the element is scrolled into view, the viewport
   * is taken, and it is cropped here to the element's box. (Cropping it in the page, sending the viewport's PNG back
   * to the page and the crop out again, once lost the page: the driver could not parse the script's result and the
   * session was gone.) `locator` is a script body that returns the element.
   */
  async takeScreenshot(_sessionId, locator) {
    const browser = this.#session();
    const box = await browser.execute(`const element = (function () { ${locator} })();
      element.scrollIntoView({ block: "nearest", inline: "nearest" });
      const { x, y, width, height } = element.getBoundingClientRect();
      return { x, y, width, height, viewport: window.innerWidth };`);
    return cropPng(Buffer.from(await browser.takeScreenshot(), "base64"), box);
  }

  #session() {
    if (!this.#browser) throw new Error("The WebKit launcher is not initialised (or already stopped).");
    return this.#browser;
  }

  /** One mouse, the same input source for every call, so a button pressed by one call is released by the next. */
  #pointer(actions) {
    return this.#session().performActions([
      { type: "pointer", id: "mouse", parameters: { pointerType: "mouse" }, actions },
    ]);
  }

  #keys(id, actions) {
    return this.#session().performActions([{ type: "key", id, actions }]);
  }
}

/**
 * The part of a PNG of the viewport under `box` (CSS pixels, clipped to the viewport; `viewport` is its CSS width),
 * as a PNG.
 * @param {Buffer} png
 * @param {{ x: number, y: number, width: number, height: number, viewport: number }} box
 */
function cropPng(png, box) {
  const image = PNG.sync.read(png);
  const scale = image.width / box.viewport;
  const left = Math.min(image.width - 1, Math.max(0, Math.floor(box.x * scale)));
  const top = Math.min(image.height - 1, Math.max(0, Math.floor(box.y * scale)));
  const right = Math.min(image.width, Math.ceil((box.x + box.width) * scale));
  const bottom = Math.min(image.height, Math.ceil((box.y + box.height) * scale));
  const out = new PNG({ width: Math.max(1, right - left), height: Math.max(1, bottom - top) });
  PNG.bitblt(image, out, left, top, out.width, out.height, 0, 0);
  return PNG.sync.write(out);
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
