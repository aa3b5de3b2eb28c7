// IME input through Chromium's DevTools protocol (Chromium only: neither WebDriver BiDi nor classic can reach an
// input method; Firefox and WebKit replay recordings instead, see test/support/ime.ts, and the "engine" command's
// `ime` says which way this engine composes), as an operating-system input method would send it:
// `executeServerCommand("ime", { action: "compose", text })` sets the composition (compositionstart/update; ""
// empties it); `{ action: "commit", text }` commits it (compositionend + input), or inserts text when none is open;
// `{ action: "key", key: "Enter" }` (or " ", "Escape") sends a raw key press while a composition may be open.
const sessions = new WeakMap();

async function cdp(page) {
  let client = sessions.get(page);
  if (!client) {
    client = await page.context().newCDPSession(page);
    sessions.set(page, client);
  }
  return client;
}

export function imePlugin() {
  return {
    name: "ime",
    async executeCommand({ command, payload, session }) {
      if (command !== "ime") return undefined;
      if (session.browser.type !== "playwright") throw new Error("ime: this engine's driver cannot compose");
      const client = await cdp(session.browser.getPage(session.id));
      const { action, text = "", key = "Enter" } = payload ?? {};
      if (action === "compose") {
        await client.send("Input.imeSetComposition", {
          text,
          selectionStart: text.length,
          selectionEnd: text.length,
        });
      } else if (action === "commit") {
        await client.send("Input.insertText", { text });
      } else if (action === "key") {
        const code = { Enter: 13, " ": 32, Escape: 27 }[key] ?? 0;
        const common = {
          key,
          code: key === " " ? "Space" : key,
          windowsVirtualKeyCode: code,
          nativeVirtualKeyCode: code,
        };
        await client.send("Input.dispatchKeyEvent", { type: "rawKeyDown", ...common });
        await client.send("Input.dispatchKeyEvent", { type: "keyUp", ...common });
      } else {
        throw new Error(`ime: unknown action ${action}`);
      }
      return true;
    },
  };
}
