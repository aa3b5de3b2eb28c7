/**
 * Notifications pi sent before the page connected (the bridge replays them) show as earlier toasts and are not
 * announced to screen readers as if they were new.
 */
import { expect, fixture, html } from "@open-wc/testing";
import "../src/elements/notifications/define.js";
import type { PiNotifications } from "../src/elements/notifications/notifications.js";
import { FakeAgent, settle } from "./session-fake-agent.js";

describe("pi-notifications and earlier notifications", () => {
  let agent: FakeAgent;
  let el: PiNotifications;
  beforeEach(async () => {
    agent = new FakeAgent();
    el = await fixture<PiNotifications>(html`<pi-notifications .session=${agent.session}></pi-notifications>`);
  });
  afterEach(() => agent.session.close());

  const liveText = () =>
    [...el.shadowRoot!.querySelectorAll("[aria-live], [role=status], [role=alert]")].map((n) => n.textContent?.trim());

  it("shows them marked earlier, and announces only what arrives after", async () => {
    agent.send({
      type: "pi-elements/earlier_notifications",
      notifications: [
        { id: "a", notifyType: "info", message: "Session started", ageMs: 5000 },
        { id: "b", notifyType: "warning", message: "3 rules skipped", ageMs: 1000 },
      ],
    });
    await settle();
    await el.updateComplete;
    const toasts = [...el.shadowRoot!.querySelectorAll("[part~=toast]")];
    expect(toasts.map((t) => t.querySelector("[part~=message]")?.textContent)).to.deep.equal([
      "Session started",
      "3 rules skipped",
    ]);
    expect(toasts.every((t) => t.querySelector("[part~=earlier]")?.textContent === "Earlier")).to.equal(true);
    expect(liveText().join("")).to.equal("");

    agent.request("notify", { message: "New one" });
    await settle();
    await el.updateComplete;
    expect(liveText().join(" ")).to.contain("New one");
    expect(liveText().join(" ")).to.not.contain("Session started");
    const newest = [...el.shadowRoot!.querySelectorAll("[part~=toast]")].find((t) =>
      t.textContent?.includes("New one"),
    );
    expect(newest?.querySelector("[part~=earlier]")).to.equal(null);
    await expect(el).to.be.accessible();
  });
});
