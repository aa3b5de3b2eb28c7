/**
 * The event model's one veto for dialogs: `pi-request-close` fires before Escape, a backdrop click or the Cancel
 * button cancels a dialog, and `preventDefault()` keeps it open with nothing sent. Without a veto, behaviour is as
 * before: `pi-cancel` with the same source, and pi gets `cancelled`.
 */
import { expect, fixture, html } from "@open-wc/testing";
import { sendKeys, sendMouse } from "@web/test-runner-commands";
import "../src/elements/extension-ui/define.js";
import "../src/elements/select/define.js";
import type { PiExtensionUi } from "../src/elements/extension-ui/extension-ui.js";
import type { PiSelect } from "../src/elements/select/select.js";
import { FakeAgent, settle } from "./session-fake-agent.js";
import { withoutArming } from "./support/dialogs.js";

withoutArming();

type Source = "keyboard" | "backdrop" | "button";

/** Dismisses the open modal dialog in `root` (the element whose shadow root holds the Cancel button) as a user. */
async function dismiss(source: Source, buttonRoot: ShadowRoot): Promise<void> {
  if (source === "keyboard") {
    await sendKeys({ press: "Escape" });
  } else if (source === "backdrop") {
    await sendMouse({ type: "click", position: [2, 2] });
  } else {
    const box = buttonRoot.querySelector('[part~="cancel-button"]')!.getBoundingClientRect();
    await sendMouse({
      type: "click",
      position: [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)],
    });
  }
  await settle();
}

/** Listeners of the current test, removed after it. */
let listening = new AbortController();
afterEach(() => {
  listening.abort();
  listening = new AbortController();
});

function listen(target: HTMLElement, veto: boolean) {
  const { signal } = listening;
  const requests: Array<{ source: string; cancelable: boolean }> = [];
  const cancels: string[] = [];
  target.addEventListener(
    "pi-request-close",
    (event) => {
      requests.push({ source: event.detail.source, cancelable: event.cancelable });
      if (veto) event.preventDefault();
    },
    { signal },
  );
  target.addEventListener("pi-cancel", (event) => cancels.push(event.detail.source), { signal });
  return { requests, cancels };
}

const sources: Source[] = ["keyboard", "backdrop", "button"];

describe("pi-request-close on a modal dialog element", () => {
  async function openSelect(): Promise<PiSelect> {
    const el = await fixture<PiSelect>(html`<pi-select modal heading="Deploy where?"></pi-select>`);
    el.options = ["staging", "production"];
    el.show();
    await settle();
    return el;
  }

  for (const source of sources) {
    it(`a veto of ${source} keeps it open: no pi-cancel, ask() still pending`, async () => {
      const el = await openSelect();
      const seen = listen(document.body, true);
      let settled = false;
      void el.ask().then(() => {
        settled = true;
      });
      await dismiss(source, el.shadowRoot!);
      expect(seen.requests).to.deep.equal([{ source, cancelable: true }]);
      expect(seen.cancels).to.deep.equal([]);
      expect(el.open).to.equal(true);
      expect(el.shadowRoot!.querySelector("dialog")!.open).to.equal(true);
      expect(settled).to.equal(false);
      // Still answerable afterwards.
      expect(el.submit()).to.equal(true);
    });

    it(`without a veto, ${source} cancels as before (pi-cancel with source ${source})`, async () => {
      const el = await openSelect();
      const seen = listen(el, false);
      await dismiss(source, el.shadowRoot!);
      expect(seen.requests).to.deep.equal([{ source, cancelable: true }]);
      expect(seen.cancels).to.deep.equal([source]);
      expect(el.open).to.equal(false);
    });
  }

  it("cancel() from the page asks no one: no pi-request-close, pi-cancel fires", async () => {
    const el = await openSelect();
    const seen = listen(el, true);
    expect(el.cancel()).to.equal(true);
    expect(seen.requests).to.deep.equal([]);
    expect(seen.cancels).to.deep.equal(["button"]);
  });
});

describe("pi-request-close on pi-extension-ui's modal", () => {
  let agent: FakeAgent;
  beforeEach(() => {
    agent = new FakeAgent();
  });
  afterEach(() => agent.session.close());

  async function mount(): Promise<PiExtensionUi> {
    const host = await fixture<PiExtensionUi>(html`<pi-extension-ui modal></pi-extension-ui>`);
    host.session = agent.session;
    await host.updateComplete;
    return host;
  }
  const shownRoot = (host: PiExtensionUi) =>
    host.shadowRoot!.querySelector<HTMLElement>('[part~="dialog-element"]')!.shadowRoot!;

  for (const source of sources) {
    it(`a veto of ${source} on the host keeps pi's dialog shown and sends pi nothing`, async () => {
      const host = await mount();
      const seen = listen(host, true);
      const id = agent.request("input", { title: "Branch name?" });
      await settle();
      await dismiss(source, shownRoot(host));
      expect(seen.requests).to.deep.equal([{ source, cancelable: true }]);
      expect(seen.cancels).to.deep.equal([]);
      expect(agent.responses()).to.deep.equal([]);
      expect(host.shadowRoot!.querySelector("dialog")!.open).to.equal(true);
      expect(agent.session.ui.getSnapshot().dialogs.map((dialog) => dialog.id)).to.deep.equal([id]);
    });

    it(`without a veto, ${source} sends pi cancelled as before`, async () => {
      const host = await mount();
      const seen = listen(host, false);
      const id = agent.request("input", { title: "Branch name?" });
      await settle();
      await dismiss(source, shownRoot(host));
      expect(seen.requests).to.deep.equal([{ source, cancelable: true }]);
      expect(seen.cancels).to.deep.equal([source]);
      expect(agent.responses()).to.deep.equal([{ type: "extension_ui_response", id, cancelled: true }]);
      expect(host.shadowRoot!.querySelector("dialog")!.open).to.equal(false);
    });
  }

  it("Escape twice with focus on the queue bar (the overlay's own close request) asks, and the veto holds both times", async () => {
    const host = await mount();
    const seen = listen(host, true);
    agent.request("input", { title: "First?" });
    agent.request("input", { title: "Second?" });
    await settle();
    host.shadowRoot!.querySelector<HTMLElement>('[part~="queue-next"]')!.focus();
    // Twice: a browser may stop honouring a vetoed close request once no user activation came between two.
    await sendKeys({ press: "Escape" });
    await settle();
    await sendKeys({ press: "Escape" });
    await settle();
    expect(seen.requests).to.deep.equal([
      { source: "keyboard", cancelable: true },
      { source: "keyboard", cancelable: true },
    ]);
    expect(agent.responses()).to.deep.equal([]);
    expect(host.shadowRoot!.querySelector("dialog")!.open).to.equal(true);
  });
});
