/**
 * Notifications that are not news (issue #34 item 5): those pi sent before the page connected (the bridge replays
 * them on every reload and in every new tab) and those a session held before the element showed them (the element
 * mounted again, as after a language switch) wait in one collapsed "Earlier notifications (N)" list, never as a
 * wall of toasts over the page, and are not announced as new. A dismissal sticks across a reload (sessionStorage,
 * by pi's request id).
 */
import { expect, fixture, html } from "@open-wc/testing";
import { sendKeys } from "@web/test-runner-commands";
import "../src/elements/notifications/define.js";
import type { PiNotifications } from "../src/elements/notifications/notifications.js";
import { FakeAgent, settle } from "./session-fake-agent.js";

const KEY = "pi-elements:dismissed-notifications";
const root = (el: PiNotifications) => el.shadowRoot!;
const toastTexts = (el: PiNotifications) =>
  [...root(el).querySelectorAll("[part~=toasts] [part~=toast] [part~=message]")].map((m) => m.textContent);
const earlierList = (el: PiNotifications) => root(el).querySelector<HTMLDetailsElement>("[part~=earlier-list]");
const earlierTexts = (el: PiNotifications) =>
  [...root(el).querySelectorAll("[part~=earlier-toasts] [part~=toast] [part~=message]")].map((m) => m.textContent);
const liveText = (el: PiNotifications) =>
  [...root(el).querySelectorAll("[aria-live], [role=alert]")]
    .map((n) => n.textContent?.trim())
    .filter(Boolean)
    .join(" ");
const replay = (agent: FakeAgent, notifications: object[]) =>
  agent.send({ type: "pi-elements/earlier_notifications", notifications });

async function mount(agent: FakeAgent): Promise<PiNotifications> {
  const el = await fixture<PiNotifications>(html`<pi-notifications .session=${agent.session}></pi-notifications>`);
  await settle();
  await el.updateComplete;
  return el;
}

const TEN = Array.from({ length: 10 }, (_, i) => ({
  id: `pi-${i}`,
  notifyType: i === 9 ? "error" : "info",
  message: `Replayed ${i}`,
  ageMs: 1000 * (10 - i),
}));

describe("pi-notifications and notifications that are not news", () => {
  let agent: FakeAgent;
  beforeEach(() => {
    sessionStorage.clear();
    agent = new FakeAgent();
  });
  afterEach(() => agent.session.close());

  it("puts ten replayed notifications in one collapsed list, not toasts; announces only what arrives after", async () => {
    const el = await mount(agent);
    replay(agent, TEN);
    await settle();
    await el.updateComplete;
    expect(toastTexts(el)).to.deep.equal([]);
    const list = earlierList(el)!;
    expect(list.open).to.equal(false);
    expect(root(el).querySelector("[part~=earlier-summary]")!.textContent).to.equal("Earlier notifications (10)");
    // Collapsed, it takes one line: none of the ten messages is drawn.
    expect(list.getBoundingClientRect().height).to.be.below(40);
    expect(liveText(el)).to.equal("");
    list.open = true;
    await el.updateComplete;
    expect(earlierTexts(el)).to.deep.equal(TEN.map((n) => n.message));
    await expect(el).to.be.accessible();

    agent.request("notify", { message: "New one" });
    await settle();
    await el.updateComplete;
    expect(toastTexts(el)).to.deep.equal(["New one"]);
    expect(liveText(el)).to.contain("New one");
    expect(liveText(el)).to.not.contain("Replayed");
  });

  it("keeps a dismissal across a reload: the same notification replayed to a new page stays dismissed", async () => {
    const el = await mount(agent);
    const id = agent.request("notify", { message: "Build failed", notifyType: "error" });
    replay(agent, [{ id: "pi-old", notifyType: "warning", message: "Old warning", ageMs: 5000 }]);
    await settle();
    await el.updateComplete;
    expect(toastTexts(el)).to.deep.equal(["Build failed"]);
    (root(el).querySelector("[part~=toasts] [part~=dismiss-button]") as HTMLButtonElement).click();
    earlierList(el)!.open = true;
    await el.updateComplete;
    (root(el).querySelector("[part~=earlier-toasts] [part~=dismiss-button]") as HTMLButtonElement).click();
    await el.updateComplete;
    expect(toastTexts(el)).to.deep.equal([]);
    expect(earlierList(el)).to.equal(null);
    expect(JSON.parse(sessionStorage.getItem(KEY)!)).to.deep.equal([id, "pi-old"]);

    // The reload: a new session and element; the bridge replays both, and one pi has not sent before.
    el.remove();
    const again = new FakeAgent();
    try {
      const fresh = await mount(again);
      replay(again, [
        { id, notifyType: "error", message: "Build failed", ageMs: 9000 },
        { id: "pi-old", notifyType: "warning", message: "Old warning", ageMs: 14000 },
        { id: "pi-new", notifyType: "info", message: "Still here", ageMs: 1000 },
      ]);
      await settle();
      await fresh.updateComplete;
      expect(toastTexts(fresh)).to.deep.equal([]);
      earlierList(fresh)!.open = true;
      await fresh.updateComplete;
      expect(earlierTexts(fresh)).to.deep.equal(["Still here"]);
    } finally {
      again.session.close();
    }
  });

  it("shows what the session held before it was mounted (a page that mounts it again) in the earlier list", async () => {
    agent.request("notify", { message: "Before the element" });
    await settle();
    const el = await mount(agent);
    expect(toastTexts(el)).to.deep.equal([]);
    expect(root(el).querySelector("[part~=earlier-summary]")!.textContent).to.equal("Earlier notifications (1)");
    expect(liveText(el)).to.equal("");
  });

  it("is opened and worked by keyboard: dismissing one moves focus to the next; the list goes with its last", async () => {
    const el = await mount(agent);
    replay(agent, TEN.slice(0, 2));
    await settle();
    await el.updateComplete;
    const summary = root(el).querySelector<HTMLElement>("[part~=earlier-summary]")!;
    summary.focus();
    await sendKeys({ press: "Enter" });
    await el.updateComplete;
    expect(earlierList(el)!.open).to.equal(true);
    const buttons = () => [...root(el).querySelectorAll<HTMLButtonElement>("[part~=earlier-toasts] [part~=dismiss]")];
    buttons()[0]!.focus();
    await sendKeys({ press: "Enter" });
    await el.updateComplete;
    expect(earlierTexts(el)).to.deep.equal(["Replayed 1"]);
    expect(root(el).activeElement).to.equal(buttons()[0]);
    await sendKeys({ press: "Escape" });
    await el.updateComplete;
    expect(earlierList(el)).to.equal(null);
  });

  for (const stored of ["not json", '{"a":1}', '[1, null, {"x":2}, "pi-0"]']) {
    it(`ignores what else the tab's storage holds under its key (${stored})`, async () => {
      sessionStorage.setItem(KEY, stored);
      const el = await mount(agent);
      replay(agent, TEN.slice(0, 2));
      await settle();
      await el.updateComplete;
      earlierList(el)!.open = true;
      await el.updateComplete;
      // Only a string id counts: "pi-0" in the last one.
      expect(earlierTexts(el)).to.deep.equal(stored.includes('"pi-0"') ? ["Replayed 1"] : ["Replayed 0", "Replayed 1"]);
    });
  }
});
