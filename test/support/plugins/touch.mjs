// A finger tap: the pointer, touch, compatibility mouse and click events a phone sends.
// `executeServerCommand("tap", { x, y })` returns true once tapped, false where the driver has no touch input.
// Chromium: DevTools protocol (touch emulation + Input.dispatchTouchEvent). Firefox: puppeteer's touchscreen, a
// WebDriver BiDi touch pointer. WebKit: none (WebKitWebDriver turns a touch pointer into mouse events: measured).
const sessions = new WeakMap();

export function touchPlugin() {
  return {
    name: "touch",
    async executeCommand({ command, payload, session }) {
      if (command !== "tap") return undefined;
      if (session.browser.type === "puppeteer") {
        await session.browser.getPage(session.id).touchscreen.tap(payload.x, payload.y);
        return true;
      }
      if (session.browser.type !== "playwright") return false;
      const page = session.browser.getPage(session.id);
      let client = sessions.get(page);
      if (!client) {
        // Emulation lasts as long as this DevTools session, so it is kept per page.
        client = await page.context().newCDPSession(page);
        await client.send("Emulation.setTouchEmulationEnabled", { enabled: true, maxTouchPoints: 1 });
        sessions.set(page, client);
      }
      const point = { x: payload.x, y: payload.y };
      await client.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [point] });
      await client.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
      return true;
    },
  };
}
