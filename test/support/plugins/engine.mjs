// What the browser tests need to know and do the same way in every engine (Chromium through Playwright, Firefox
// through puppeteer over WebDriver BiDi, WebKit through WebDriver classic):
// - "engine": { name: "chromium" | "firefox" | "webkit", media: bool, ime: "devtools" | "recording" } — which
//   engine runs the file, whether its driver can emulate media features, and how its IME compositions are made
//   (live through Chromium's DevTools protocol, or the engine's own recording replayed: test/support/ime.ts).
// - "keys": { press: "Shift+Enter" } — a key with modifiers, pressed as a user would (hold, press, release);
//   { down: "Enter" } / { up: "Enter" } — a key held down (auto-repeat when sent again) and released.
// - "media": { colorScheme?, forcedColors? } — emulates media features where the driver can; returns false where
//   it cannot (the test then says so and checks what it still can).

/** @returns {"chromium" | "firefox" | "webkit"} */
export function engineOf(session) {
  const name = String(session.browser.name).toLowerCase();
  if (name.includes("firefox")) return "firefox";
  if (name.includes("webkit") || name.includes("minibrowser")) return "webkit";
  return "chromium";
}

const MODIFIERS = new Set(["Shift", "Control", "Alt", "Meta"]);

async function pressCombo(session, combo) {
  const keys = combo.split("+");
  const key = keys.pop();
  if (!key || keys.some((k) => !MODIFIERS.has(k))) throw new Error(`keys: cannot press ${combo}`);
  const { browser } = session;
  if (browser.type === "playwright") {
    await browser.getPage(session.id).keyboard.press(combo);
  } else if (browser.type === "puppeteer") {
    const { keyboard } = browser.getPage(session.id);
    for (const modifier of keys) await keyboard.down(modifier);
    await keyboard.press(key);
    for (const modifier of keys.reverse()) await keyboard.up(modifier);
  } else if (browser.type === "webdriver") {
    // The WebKit launcher (test/support/webkit-launcher.mjs) holds the modifiers for the key that follows.
    await browser.sendKeys(session.id, [...keys, key]);
  } else {
    throw new Error(`keys: unsupported browser type ${browser.type}`);
  }
}

/** `{ down: key }` presses a key and keeps it down (again: auto-repeat); `{ up: key }` releases it. */
async function hold(session, { down, up }) {
  const { browser } = session;
  const type = down !== undefined ? "down" : "up";
  const key = String(down ?? up);
  if (browser.type === "playwright" || browser.type === "puppeteer") {
    const { keyboard } = browser.getPage(session.id);
    await (type === "down" ? keyboard.down(key) : keyboard.up(key));
  } else if (typeof browser.keyAction === "function") {
    await browser.keyAction(session.id, type, key);
  } else {
    throw new Error(`keys: cannot hold keys in browser type ${browser.type}`);
  }
}

export function enginePlugin() {
  return {
    name: "pi-engine",
    async executeCommand({ command, payload, session }) {
      if (command === "engine") {
        const name = engineOf(session);
        const live = session.browser.type === "playwright";
        return { name, media: live, ime: live ? "devtools" : "recording" };
      }
      if (command === "keys") {
        if (payload?.down !== undefined || payload?.up !== undefined) await hold(session, payload);
        else await pressCombo(session, String(payload?.press ?? ""));
        return true;
      }
      if (command === "media") {
        if (session.browser.type !== "playwright") return false;
        await session.browser.getPage(session.id).emulateMedia(payload ?? {});
        return true;
      }
      return undefined;
    },
  };
}
