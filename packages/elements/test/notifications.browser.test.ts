import { ContextProvider } from "@lit/context";
import { expect, fixture, html, oneEvent } from "@open-wc/testing";
import { executeServerCommand, sendKeys } from "@web/test-runner-commands";
import { emulate, engine } from "../../../test/support/engine.js";
import { sessionContext } from "../src/context.js";
import "../src/elements/notifications/define.js";
import type { NotificationDismissDetail, PiNotifications } from "../src/elements/notifications/notifications.js";
import { FakeAgent, ManualClock, settle } from "./session-fake-agent.js";

function notify(agent: FakeAgent, message: string, notifyType?: "info" | "warning" | "error") {
  agent.request("notify", { message, ...(notifyType ? { notifyType } : {}) });
}

const root = (el: PiNotifications) => el.shadowRoot!;
const toasts = (el: PiNotifications) => [...root(el).querySelectorAll<HTMLElement>('[part~="toast"]')];
const bodies = (el: PiNotifications) => toasts(el).map((t) => t.querySelector('[part~="body"]')?.textContent);
const polite = (el: PiNotifications) => root(el).querySelector('[aria-live="polite"]')!.textContent;
const alert = (el: PiNotifications) => root(el).querySelector('[role="alert"]')!.textContent;
const more = (el: PiNotifications) => root(el).querySelector('[part~="more"]')?.textContent ?? null;

async function mount(clock = new ManualClock(), attrs = html``): Promise<{ el: PiNotifications; clock: ManualClock }> {
  const el = await fixture<PiNotifications>(html`<pi-notifications .clock=${clock}>${attrs}</pi-notifications>`);
  return { el, clock };
}

// Dismissals stick per tab (sessionStorage): each test starts with none, since FakeAgent's ids repeat across tests.
beforeEach(() => sessionStorage.clear());

describe("pi-notifications", () => {
  it("shows each type with its icon and colour: Error: and Warning: prefixes in theirs, info in the text colour", async () => {
    const { el } = await mount();
    el.theme = "dark";
    el.notify("info", "Saved 3 files");
    el.notify("warning", "Low context");
    el.notify("error", "Build failed");
    await el.updateComplete;
    expect(bodies(el)).to.deep.equal(["Saved 3 files", "Warning: Low context", "Error: Build failed"]);
    const [info, warning, error] = toasts(el);
    expect(info!.getAttribute("part")).to.equal("toast toast-info");
    // Info reads at full contrast (the text colour); its accent is the edge and the icon.
    expect(getComputedStyle(info!).color).to.equal("rgb(228, 228, 228)");
    expect(getComputedStyle(info!.querySelector("[part~=icon]")!).color).to.equal("rgb(138, 190, 183)");
    expect(getComputedStyle(warning!.querySelector("[part~=icon]")!).color).to.equal("rgb(240, 198, 116)");
    expect(getComputedStyle(error!.querySelector("[part~=icon]")!).color).to.equal("rgb(212, 116, 116)");
    expect(info!.querySelector("[part~=icon]")!.getAttribute("aria-hidden")).to.equal("true");
    expect(getComputedStyle(warning!).color).to.equal("rgb(240, 198, 116)");
    expect(getComputedStyle(error!).color).to.equal("rgb(212, 116, 116)");
    expect(root(el).querySelector('[part~="stack"]')?.getAttribute("aria-label")).to.equal("Notifications");
    await expect(el).to.be.accessible();
  });

  it("floats over the page at the bottom end corner with the floating attribute", async () => {
    const el = await fixture<PiNotifications>(html`<pi-notifications floating dir="rtl"></pi-notifications>`);
    el.notify("info", "floating");
    await el.updateComplete;
    const style = getComputedStyle(el);
    expect(style.position).to.equal("fixed");
    const box = el.getBoundingClientRect();
    expect(box.bottom).to.be.closeTo(window.innerHeight - 8, 2);
    expect(box.left).to.be.closeTo(8, 2);
  });

  it("takes notify() before it is in the page: listed as active at once, shown and announced once mounted", async () => {
    const el = document.createElement("pi-notifications");
    el.clock = new ManualClock();
    expect(el.notify("warning", "early")).to.equal(1);
    expect(el.active.map((n) => n.message)).to.deep.equal(["early"]);
    const wrapper = await fixture<HTMLDivElement>(html`<div></div>`);
    wrapper.append(el);
    await el.updateComplete;
    expect(bodies(el)).to.deep.equal(["Warning: early"]);
    expect(polite(el)).to.equal("Warning: early");
  });

  it("names where an error the session reported came from: the command pi refused, the extension's file, pi's stderr", async () => {
    const agent = new FakeAgent({ clock: new ManualClock() });
    agent.failing.add("prompt");
    agent.errors.set("prompt", "Agent is busy");
    const el = await fixture<PiNotifications>(
      html`<pi-notifications .session=${agent.session} .max=${6}></pi-notifications>`,
    );
    await agent.session.send("prompt", { message: "hi" }).catch(() => undefined);
    const path = "/home/me/.pi/agent/extensions/permission-gate.ts";
    agent.send({
      type: "extension_error",
      extensionPath: path,
      event: "tool_call",
      error: "TypeError: x is undefined",
    });
    agent.send({
      type: "extension_error",
      extensionPath: "C:\\pi\\ext\\<img src=x onerror=alert(1)>.ts",
      error: "lint failed",
    });
    agent.send({ type: "extension_error", error: "boom" });
    notify(agent, "pi's own error", "error");
    // What pi wrote to its stderr after a session change, relayed by the bridge.
    agent.send({
      type: "pi-elements/agent_diagnostic",
      level: "warning",
      message: "Could not restore model gone/x. Using scripted/scripted-model",
    });
    await settle();
    await el.updateComplete;
    expect(bodies(el)).to.deep.equal([
      "Error: prompt failed: Agent is busy",
      "Error: permission-gate.ts: TypeError: x is undefined",
      "Error: <img src=x onerror=alert(1)>.ts: lint failed",
      "Error: Extension: boom",
      "Error: pi's own error",
      "Warning: pi: Could not restore model gone/x. Using scripted/scripted-model",
    ]);
    const origins = toasts(el).map((toast) => toast.querySelector('[part~="origin"]'));
    expect(origins[1]?.getAttribute("title")).to.equal(`${path} · tool_call`);
    expect(origins[4]).to.equal(null);
    expect(root(el).querySelector("img")).to.equal(null);
    // Quiet next to the message: the muted colour, not the error red.
    expect(getComputedStyle(origins[0]!).color).not.to.equal(getComputedStyle(toasts(el)[0]!).color);
    el.theme = "light";
    await el.updateComplete;
    await expect(el).to.be.accessible();
  });

  it("announces an error with its origin", async () => {
    const agent = new FakeAgent({ clock: new ManualClock() });
    agent.failing.add("steer");
    const el = await fixture<PiNotifications>(html`<pi-notifications .session=${agent.session}></pi-notifications>`);
    await agent.session.send("steer", { message: "left" }).catch(() => undefined);
    await settle();
    await el.updateComplete;
    expect(alert(el)).to.equal("Error: steer failed: nope");
  });

  it("follows a message that says to use /login with what to do instead, shown and announced", async () => {
    const agent = new FakeAgent({ clock: new ManualClock() });
    const el = await fixture<PiNotifications>(html`<pi-notifications .session=${agent.session}></pi-notifications>`);
    // pi 1.6.0's llama.cpp extension, when it has no server configured.
    notify(agent, "Configure llama.cpp with /login llama", "warning");
    await settle();
    await el.updateComplete;
    const advice = toasts(el)[0]!.querySelector<HTMLElement>("[part~=login-advice]")!;
    expect(advice.textContent).to.match(/^\/login works only in pi's own terminal\. /);
    expect(advice.checkVisibility()).to.equal(true);
    expect(polite(el)).to.equal(`Warning: Configure llama.cpp with /login llama ${advice.textContent}`);
    // A path that ends in /login is no such advice.
    notify(agent, "Saved /srv/app/login");
    await settle();
    await el.updateComplete;
    expect(toasts(el)[1]!.querySelector("[part~=login-advice]")).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it("treats an unknown type as info and markup as text", async () => {
    const { el } = await mount();
    el.notify("bogus" as "info", "<img src=x onerror=alert(1)><script>alert(2)</script>");
    await el.updateComplete;
    expect(toasts(el)[0]?.dataset.type).to.equal("info");
    expect(bodies(el)).to.deep.equal(["<img src=x onerror=alert(1)><script>alert(2)</script>"]);
    expect(root(el).querySelector("img, script")).to.equal(null);
  });

  it("announces each new notification once: politely, and errors in a separate alert region", async () => {
    const { el } = await mount();
    expect(polite(el)).to.equal("");
    el.notify("info", "one");
    await el.updateComplete;
    expect(polite(el)).to.equal("one");
    expect(alert(el)).to.equal("");
    el.notify("error", "boom");
    await el.updateComplete;
    expect(alert(el)?.trim()).to.equal("Error: boom");
    expect(polite(el)).to.equal("one");
    el.notify("warning", "careful");
    el.notify("info", "newest of a burst");
    await el.updateComplete;
    expect(polite(el)?.trim()).to.equal("newest of a burst");
    const before = polite(el);
    el.notify("info", "newest of a burst");
    await el.updateComplete;
    expect(polite(el)).not.to.equal(before);
    expect(polite(el)?.trim()).to.equal("newest of a burst");
    expect(root(el).querySelectorAll('[aria-live], [role="alert"], [role="status"]')).to.have.length(2);
  });

  it("dismisses info and warnings after the configured time; errors stay", async () => {
    const clock = new ManualClock();
    const el = await fixture<PiNotifications>(
      html`<pi-notifications duration="3000" .clock=${clock}></pi-notifications>`,
    );
    const events: NotificationDismissDetail[] = [];
    el.addEventListener("pi-notification-dismiss", (e) => events.push(e.detail));
    el.notify("info", "i");
    el.notify("error", "e");
    await el.updateComplete;
    clock.advance(1000);
    el.notify("warning", "w");
    await el.updateComplete;
    clock.advance(1999);
    await el.updateComplete;
    expect(bodies(el)).to.deep.equal(["i", "Error: e", "Warning: w"]);
    clock.advance(1);
    await el.updateComplete;
    expect(bodies(el)).to.deep.equal(["Error: e", "Warning: w"]);
    expect(events).to.deep.equal([{ id: 1, type: "info", message: "i", source: "timeout" }]);
    clock.advance(1000);
    await el.updateComplete;
    expect(bodies(el)).to.deep.equal(["Error: e"]);
    clock.advance(3_600_000);
    await el.updateComplete;
    expect(bodies(el)).to.deep.equal(["Error: e"]);
    expect(clock.pending).to.equal(0);
  });

  it("reads an unreadable duration as the default 5 seconds", async () => {
    const clock = new ManualClock();
    const el = await fixture<PiNotifications>(
      html`<pi-notifications duration="soon" .clock=${clock}></pi-notifications>`,
    );
    el.notify("info", "x");
    await el.updateComplete;
    clock.advance(4999);
    await el.updateComplete;
    expect(toasts(el)).to.have.length(1);
    clock.advance(1);
    await el.updateComplete;
    expect(toasts(el)).to.have.length(0);
  });

  it("keeps info forever with duration 0, and starts counting when a duration is set", async () => {
    const clock = new ManualClock();
    const el = await fixture<PiNotifications>(html`<pi-notifications duration="0" .clock=${clock}></pi-notifications>`);
    el.notify("info", "stays");
    await el.updateComplete;
    clock.advance(1e9);
    await el.updateComplete;
    expect(bodies(el)).to.deep.equal(["stays"]);
    el.duration = 2000;
    await el.updateComplete;
    clock.advance(2000);
    await el.updateComplete;
    expect(bodies(el)).to.deep.equal([]);
  });

  it("pauses the countdown while hovered and while focus is inside, then resumes with the time that was left", async () => {
    const { el, clock } = await mount();
    el.notify("info", "paused");
    await el.updateComplete;
    clock.advance(4000);
    const stack = root(el).querySelector('[part~="stack"]')!;
    stack.dispatchEvent(new PointerEvent("pointerenter"));
    clock.advance(60_000);
    await el.updateComplete;
    expect(bodies(el)).to.deep.equal(["paused"]);
    stack.dispatchEvent(new PointerEvent("pointerleave"));
    clock.advance(999);
    await el.updateComplete;
    expect(bodies(el)).to.deep.equal(["paused"]);

    root(el).querySelector<HTMLButtonElement>('[part~="dismiss"]')!.focus();
    clock.advance(60_000);
    await el.updateComplete;
    expect(bodies(el)).to.deep.equal(["paused"]);
    // The focused button itself loses focus (blur() on the shadow host moves nothing in Firefox).
    root(el).querySelector<HTMLButtonElement>('[part~="dismiss"]')!.blur();
    clock.advance(1);
    await el.updateComplete;
    expect(bodies(el)).to.deep.equal([]);
  });

  it("dismisses with the button (mouse or keyboard) and with Escape, keeping focus in the stack", async () => {
    const { el } = await mount();
    el.notify("error", "a");
    el.notify("error", "b");
    el.notify("error", "c");
    await el.updateComplete;
    const clicked = oneEvent(el, "pi-notification-dismiss");
    const buttons = root(el).querySelectorAll<HTMLButtonElement>('[part~="dismiss"]');
    expect(buttons[0]!.getAttribute("aria-label")).to.equal("Dismiss");
    buttons[0]!.click();
    expect((await clicked).detail).to.deep.equal({ id: 1, type: "error", message: "a", source: "button" });
    await el.updateComplete;
    expect(bodies(el)).to.deep.equal(["Error: b", "Error: c"]);
    expect(root(el).activeElement).to.equal(toasts(el)[0]!.querySelector('[part~="dismiss"]'));

    await sendKeys({ press: "Enter" });
    await el.updateComplete;
    expect(bodies(el)).to.deep.equal(["Error: c"]);
    const escaped = oneEvent(el, "pi-notification-dismiss");
    await sendKeys({ press: "Escape" });
    expect((await escaped).detail.source).to.equal("keyboard");
    await el.updateComplete;
    expect(toasts(el)).to.have.length(0);
    expect(el.dismiss(3)).to.equal(false);
    await expect(el).to.be.accessible();
  });

  it("keeps a toast's element, and the focus in it, while older toasts leave and newer ones arrive", async () => {
    const { el } = await mount();
    for (const message of ["a", "b", "c", "d", "e"]) el.notify("error", message);
    await el.updateComplete;
    const toastC = toasts(el)[2]!;
    const button = toastC.querySelector<HTMLButtonElement>('[part~="dismiss"]')!;
    button.focus();
    const blurs: string[] = [];
    button.addEventListener("blur", () => blurs.push("blur"));
    // Two newer toasts push the two oldest out of the five shown; then one before it is dismissed.
    el.notify("error", "f");
    el.notify("error", "g");
    await el.updateComplete;
    el.dismiss(4);
    await el.updateComplete;
    expect(bodies(el)).to.deep.equal(["Error: b", "Error: c", "Error: e", "Error: f", "Error: g"]);
    expect(toasts(el)[1]).to.equal(toastC);
    expect(root(el).activeElement).to.equal(button);
    expect(blurs).to.deep.equal([]);
    // Escape still dismisses the toast that has focus, and focus moves to the one now in its place.
    await sendKeys({ press: "Escape" });
    await el.updateComplete;
    expect(bodies(el)).to.deep.equal(["Error: a", "Error: b", "Error: e", "Error: f", "Error: g"]);
    expect(root(el).activeElement).to.equal(toasts(el)[1]!.querySelector('[part~="dismiss"]'));
  });

  it("shows at most max toasts (the newest) and +N more; 10,000 notifications never exceed the cap in the DOM", async () => {
    const { el } = await mount();
    for (let i = 1; i <= 12; i++) el.notify("error", `n${i}`);
    await el.updateComplete;
    expect(toasts(el)).to.have.length(5);
    expect(bodies(el)[4]).to.equal("Error: n12");
    expect(more(el)).to.equal("+7 more");
    el.max = 2;
    await el.updateComplete;
    expect(toasts(el)).to.have.length(2);
    expect(more(el)).to.equal("+10 more");
    root(el).querySelector<HTMLButtonElement>('[part~="dismiss"]')!.click();
    await el.updateComplete;
    expect(bodies(el)).to.deep.equal(["Error: n10", "Error: n12"]);
    expect(more(el)).to.equal("+9 more");
    await expect(el).to.be.accessible();

    el.max = 0;
    await el.updateComplete;
    expect(toasts(el)).to.have.length(1);
    el.setAttribute("max", "many");
    await el.updateComplete;
    expect(toasts(el)).to.have.length(5);
    for (let i = 0; i < 10_000; i++) el.notify(i % 3 === 0 ? "error" : "info", `burst ${i}`);
    await el.updateComplete;
    expect(root(el).querySelectorAll("li")).to.have.length(5);
    expect(bodies(el)[4]).to.equal("Error: burst 9999");
  });

  it("follows a session's notifications; what it held before mounting waits in the earlier list, not announced", async () => {
    const clock = new ManualClock();
    const agent = new FakeAgent({ clock });
    const session = agent.session;
    notify(agent, "old");
    await settle();
    const wrapper = await fixture<HTMLDivElement>(html`<div></div>`);
    new ContextProvider(wrapper, { context: sessionContext, initialValue: session });
    const el = Object.assign(document.createElement("pi-notifications"), { clock: new ManualClock() });
    wrapper.append(el);
    await el.updateComplete;
    expect(bodies(el)).to.deep.equal(["old"]);
    expect(root(el).querySelector('[part~="toasts"] [part~="toast"]'), "not a toast").to.equal(null);
    expect(root(el).querySelector('[part~="earlier-toasts"]')!.textContent).to.contain("old");
    expect(polite(el)).to.equal("");
    notify(agent, "fresh", "warning");
    notify(agent, "bad", "error");
    await settle();
    expect(bodies(el)).to.deep.equal(["old", "Warning: fresh", "Error: bad"]);
    expect(polite(el)?.trim()).to.equal("Warning: fresh");
    expect(alert(el)?.trim()).to.equal("Error: bad");
    clock.advance(5000);
    await el.updateComplete;
    // The earlier one has no timer: it waits, quietly, until dismissed.
    expect(bodies(el)).to.deep.equal(["old", "Error: bad"]);
  });

  it("times a session's notifications on session.clock, not on its own clock (which is for notify() alone)", async () => {
    const sessionClock = new ManualClock();
    const ownClock = new ManualClock();
    const agent = new FakeAgent({ clock: sessionClock });
    const el = await fixture<PiNotifications>(
      html`<pi-notifications .session=${agent.session} .clock=${ownClock}></pi-notifications>`,
    );
    notify(agent, "timed", "info");
    await settle();
    await el.updateComplete;
    expect(bodies(el)).to.deep.equal(["timed"]);
    ownClock.advance(60_000);
    await el.updateComplete;
    expect(bodies(el)).to.deep.equal(["timed"], "the element's own clock does not time a session's notification");
    expect(ownClock.pending).to.equal(0);
    sessionClock.advance(4999);
    await el.updateComplete;
    expect(bodies(el)).to.deep.equal(["timed"]);
    sessionClock.advance(1);
    await el.updateComplete;
    expect(bodies(el)).to.deep.equal([]);
    el.session = undefined;
    el.notify("info", "own");
    await el.updateComplete;
    sessionClock.advance(60_000);
    await el.updateComplete;
    expect(bodies(el)).to.deep.equal(["own"]);
    ownClock.advance(5000);
    await el.updateComplete;
    expect(bodies(el)).to.deep.equal([]);
  });

  it("starts afresh on another session: its notifications are not taken for the first one's dismissed ids", async () => {
    const clock = new ManualClock();
    const a = new FakeAgent({ clock });
    const b = new FakeAgent({ clock });
    notify(a, "from a", "error");
    // pi's request ids are unique (UUIDs); FakeAgent's repeat per agent, so b's is its own here.
    b.send({ type: "extension_ui_request", id: "b-1", method: "notify", message: "from b", notifyType: "error" });
    await settle();
    const el = await fixture<PiNotifications>(html`<pi-notifications .session=${a.session}></pi-notifications>`);
    expect(bodies(el)).to.deep.equal(["Error: from a"]);
    expect(el.dismiss(1)).to.equal(true);
    await el.updateComplete;
    expect(toasts(el)).to.have.length(0);
    el.session = b.session;
    await el.updateComplete;
    // Both sessions number their notifications from 1: b's first is still to be seen (in the earlier list: b held
    // it before), and is not news.
    expect(bodies(el)).to.deep.equal(["Error: from b"]);
    expect(alert(el)).to.equal("");
    el.session = undefined;
    el.notify("info", "own");
    await el.updateComplete;
    expect(bodies(el)).to.deep.equal(["own"]);
    expect(polite(el)).to.equal("own");
  });

  it("keeps the DOM at the cap under a 10,000-notification session burst", async () => {
    const agent = new FakeAgent({ clock: new ManualClock() });
    const session = agent.session;
    const el = await fixture<PiNotifications>(html`<pi-notifications .session=${session}></pi-notifications>`);
    let most = 0;
    const observer = new MutationObserver(() => {
      most = Math.max(most, root(el).querySelectorAll("li").length);
    });
    observer.observe(root(el), { childList: true, subtree: true });
    for (let i = 0; i < 10_000; i++) notify(agent, `m${i}`, i % 2 ? "error" : "info");
    await settle();
    await el.updateComplete;
    observer.disconnect();
    expect(most).to.equal(5);
    expect(root(el).querySelectorAll("li")).to.have.length(5);
    expect(bodies(el)[4]).to.equal("Error: m9999");
    expect(more(el)).to.equal("+95 more");
  });

  it("speaks the nearest language, handles CJK and emoji, and lays out right to left", async () => {
    const wrapper = await fixture<HTMLDivElement>(
      html`<div lang="ja" dir="rtl"><pi-notifications max="1"></pi-notifications></div>`,
    );
    const el = wrapper.querySelector("pi-notifications")!;
    el.notify("error", "ビルドに失敗しました 💥");
    el.notify("warning", "注意 ⚠️");
    await el.updateComplete;
    expect(bodies(el)).to.deep.equal(["警告: 注意 ⚠️"]);
    expect(more(el)).to.equal("他1件");
    const toast = toasts(el)[0]!;
    expect(getComputedStyle(toast).borderRightWidth).to.equal("4px");
    const dismiss = toast.querySelector('[part~="dismiss"]')!;
    expect(dismiss.getBoundingClientRect().left).to.be.below(
      toast.querySelector('[part~="body"]')!.getBoundingClientRect().left,
    );
    await expect(el).to.be.accessible();
  });

  for (const theme of ["light", "dark"] as const) {
    it(`passes axe in the ${theme} theme and takes a screenshot`, async () => {
      const el = await fixture<PiNotifications>(
        html`<pi-notifications id="shot" theme=${theme} max="4" .clock=${new ManualClock()} style="inline-size: 30rem"></pi-notifications>`,
      );
      await expect(el).to.be.accessible();
      el.notify("info", "Saved session to ~/.pi/sessions/2026-11-30.jsonl");
      el.notify("warning", "Context window 90% full");
      el.notify("error", "Extension \u001b[1mlint\u001b[22m failed:\nTypeError: cannot read <b>undefined</b>");
      el.notify("info", "中文通知 · 日本語の通知 🚀");
      el.notify("error", "the newest; the oldest waits behind +1 more");
      await el.updateComplete;
      await expect(el).to.be.accessible();
      await executeServerCommand("screenshot", { name: `notifications-${theme}`, selector: "#shot" });
    });
  }

  it("follows prefers-color-scheme without a theme attribute, and stays usable in forced colors", async function (this: Mocha.Context) {
    // Skipped where the driver cannot emulate media features (Firefox over WebDriver BiDi, WebKit over WebDriver
    // classic have no prefers-color-scheme / forced-colors emulation); the themes are still checked there through
    // the theme attribute and the screenshots.
    if (!(await engine()).media) return this.skip();
    const { el } = await mount();
    el.id = "shot";
    el.style.inlineSize = "24rem";
    el.notify("info", "info");
    el.notify("warning", "warning");
    el.notify("error", "error");
    await el.updateComplete;
    const error = toasts(el)[2]!;
    try {
      await emulate({ colorScheme: "dark" });
      expect(getComputedStyle(error).color).to.equal("rgb(212, 116, 116)");
      await emulate({ colorScheme: "light" });
      expect(getComputedStyle(error).color).to.equal("rgb(163, 79, 79)");
      await emulate({ forcedColors: "active" });
      await expect(el).to.be.accessible();
      await executeServerCommand("screenshot", { name: "notifications-forced-colors", selector: "#shot" });
    } finally {
      await emulate({ forcedColors: "none", colorScheme: "light" });
    }
  });
});
