/**
 * Which dialog shows is the core's choice (`UiSnapshot.shownDialogId`): a host built on the core alone, a plain
 * subscriber to `session.ui` as a React, Vue or Svelte app would be, shows the same dialog as pi-extension-ui for
 * the same stream, through arrivals (a timed dialog behind an untimed one), answers, the user's Previous / Next and
 * an expiry.
 */
import { expect, fixture, html } from "@open-wc/testing";
import { shownDialog } from "@pi-elements/core";
import { sendKeys } from "@web/test-runner-commands";
import "../src/elements/extension-ui/define.js";
import type { PiExtensionUi } from "../src/elements/extension-ui/extension-ui.js";
import { FakeAgent, ManualClock, settle } from "./session-fake-agent.js";
import { withoutArming } from "./support/dialogs.js";

// About closing and ordering, not arming: the keys these tests press answer at once.
withoutArming();

const part = (host: PiExtensionUi, name: string) => host.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
const elementShows = (host: PiExtensionUi) =>
  part(host, "dialog-element")?.shadowRoot?.querySelector(".heading-text")?.textContent ?? null;

describe("the dialog to show, decided in the core", () => {
  let agent: FakeAgent;
  let clock: ManualClock;

  beforeEach(() => {
    clock = new ManualClock();
    agent = new FakeAgent({ clock });
  });
  afterEach(() => agent.session.close());

  it("a host on the core alone shows what pi-extension-ui shows, a timed dialog arriving behind an untimed one included", async () => {
    const host = await fixture<PiExtensionUi>(html`<pi-extension-ui .session=${agent.session}></pi-extension-ui>`);
    // The core-only host: what it renders is the title of the dialog the store names, at every notification.
    const coreHost = document.createElement("p");
    host.after(coreHost);
    const store = agent.session.ui;
    store.subscribe(() => {
      coreHost.textContent = shownDialog(store.getSnapshot())?.request.title ?? "";
    });
    const same = async (title: string) => {
      await settle();
      expect(coreHost.textContent, "the core-only host").to.equal(title);
      expect(elementShows(host), "pi-extension-ui").to.equal(title);
    };

    agent.request("input", { title: "Untimed" });
    await same("Untimed");
    // A timed dialog arrives behind the one being answered: neither host lets it take over.
    agent.request("input", { title: "Timed, later", timeout: 9000 });
    agent.request("input", { title: "Untimed, later" });
    await same("Untimed");
    agent.request("input", { title: "Timed, sooner", timeout: 4000 });
    await same("Untimed");

    // The user answers the shown one: the earliest deadline comes next, not the oldest.
    await sendKeys({ type: "x" });
    await sendKeys({ press: "Enter" });
    await same("Timed, sooner");

    // The user moves with the queue bar (queue order: Timed later, Untimed later, Timed sooner): the core's
    // choice follows, so every host moves too.
    part(host, "queue-previous")!.click();
    await same("Untimed, later");
    part(host, "queue-previous")!.click();
    await same("Timed, later");

    // One waiting behind expires: the shown one stays. Then the shown one expires: the rule chooses again.
    clock.advance(4000);
    await same("Timed, later");
    clock.advance(5000);
    await same("Untimed, later");
    expect(agent.responses()).to.deep.equal([
      { type: "extension_ui_response", id: "req-1", value: "x" },
      { type: "extension_ui_response", id: "req-4", cancelled: true },
      { type: "extension_ui_response", id: "req-2", cancelled: true },
    ]);
  });

  it("dialogs that arrive in one burst are chosen among together: both hosts show the timed one first", async () => {
    const host = await fixture<PiExtensionUi>(html`<pi-extension-ui .session=${agent.session}></pi-extension-ui>`);
    agent.request("confirm", { title: "Untimed", message: "" });
    agent.request("confirm", { title: "Timed", message: "", timeout: 5000 });
    await settle();
    expect(shownDialog(agent.session.ui.getSnapshot())?.request.title).to.equal("Timed");
    expect(elementShows(host)).to.equal("Timed");
  });
});
