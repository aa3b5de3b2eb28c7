/**

 * No dialog strands the user: every pending dialog is reachable from pi-extension-ui's queue bar and can be answered
 * or dismissed; a dialog with a deadline waiting behind another is shown with its countdown and announced, so it
 * never expires unseen (timed-confirm's `/timed-signal` case: a confirm pi abandoned stays first, a timed select
 * queues behind it).
 */
import { expect, fixture, html } from "@open-wc/testing";
import { sendKeys, sendMouse } from "@web/test-runner-commands";
import "../src/elements/extension-ui/define.js";
import "../src/elements/prompt/define.js";
import type { PiExtensionUi } from "../src/elements/extension-ui/extension-ui.js";
import type { PiPrompt } from "../src/elements/prompt/prompt.js";
import { FakeAgent, ManualClock, settle } from "./session-fake-agent.js";
import { withoutArming } from "./support/dialogs.js";

withoutArming();

const part = (host: PiExtensionUi, name: string) => host.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
const shown = (host: PiExtensionUi) => part(host, "dialog-element")!;
const shownTitle = (host: PiExtensionUi) => shown(host).shadowRoot!.querySelector(".heading-text")?.textContent;

function deepActive(): Element | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

async function click(element: Element): Promise<void> {
  const box = element.getBoundingClientRect();
  await sendMouse({ type: "click", position: [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)] });
  await settle();
}

describe("pi-extension-ui's dialog queue", () => {
  let agent: FakeAgent;
  let clock: ManualClock;
  let host: PiExtensionUi;
  let prompt: PiPrompt;

  beforeEach(async () => {
    clock = new ManualClock();
    agent = new FakeAgent({ clock });
    const wrapper = await fixture<HTMLElement>(
      html`<div><pi-extension-ui .session=${agent.session}><pi-prompt .session=${agent.session}></pi-prompt></pi-extension-ui></div>`,
    );
    host = wrapper.querySelector("pi-extension-ui")!;
    prompt = wrapper.querySelector("pi-prompt")!;
  });
  afterEach(() => agent.session.close());

  it("moves between pending dialogs with Previous and Next; each keeps what was typed; any one can be answered", async () => {
    const first = agent.request("input", { title: "First?" });
    const second = agent.request("input", { title: "Second?" });
    const third = agent.request("confirm", { title: "Third?", message: "" });
    await settle();
    expect(part(host, "queue-position")!.textContent).to.equal("1 of 3");
    expect(part(host, "queue-previous")!.hasAttribute("disabled")).to.equal(true);
    await sendKeys({ type: "draft one" });

    await click(part(host, "queue-next")!);
    expect(shownTitle(host)).to.equal("Second?");
    expect(part(host, "queue-position")!.textContent).to.equal("2 of 3");
    expect(shown(host).shadowRoot!.contains(deepActive())).to.equal(true);
    await sendKeys({ type: "two" });

    // By keyboard: Shift+Tab from the field reaches Next (after Previous), Enter activates it.
    part(host, "queue-next")!.focus();
    await sendKeys({ press: "Enter" });
    await settle();
    expect(shownTitle(host)).to.equal("Third?");
    expect(part(host, "queue-next")!.hasAttribute("disabled")).to.equal(true);

    await click(part(host, "queue-previous")!);
    await click(part(host, "queue-previous")!);
    expect(shownTitle(host)).to.equal("First?");
    expect(shown(host).shadowRoot!.querySelector("input")!.value).to.equal("draft one");

    // Answer the second one out of order.
    await click(part(host, "queue-next")!);
    expect(shown(host).shadowRoot!.querySelector("input")!.value).to.equal("two");
    await sendKeys({ press: "Enter" });
    await settle();
    expect(agent.responses()).to.deep.equal([{ type: "extension_ui_response", id: second, value: "two" }]);
    // The oldest waiting one comes back, with its text.
    expect(shownTitle(host)).to.equal("First?");
    expect(part(host, "queue-position")!.textContent).to.equal("1 of 2");
    expect(shown(host).shadowRoot!.querySelector("input")!.value).to.equal("draft one");
    expect(first).to.not.equal(third);
  });

  it("a dialog pi abandoned can be dismissed (cancelled) without hiding the others", async () => {
    const stale = agent.request("confirm", { title: "Continue? (abandoned by pi)", message: "" });
    const live = agent.request("select", { title: "Live", options: ["a", "b"] });
    await settle();
    expect(shownTitle(host)).to.equal("Continue? (abandoned by pi)");
    await sendKeys({ press: "Escape" });
    await settle();
    expect(agent.responses()).to.deep.equal([{ type: "extension_ui_response", id: stale, cancelled: true }]);
    expect(shownTitle(host)).to.equal("Live");
    expect(part(host, "queue")).to.equal(null);
    await sendKeys({ press: "Enter" });
    await settle();
    expect(agent.responses().at(-1)).to.deep.equal({ type: "extension_ui_response", id: live, value: "a" });
  });

  it("a timed dialog waiting behind another is shown with its countdown and announced; it never takes over by itself", async () => {
    agent.request("confirm", { title: "Abandoned confirm", message: "" });
    await settle();
    await sendKeys({ press: "ArrowRight" }); // the user is busy with the shown dialog
    const timed = agent.request("select", {
      title: "\u001b[1mQuick!\u001b[22m Pick one",
      options: ["red", "blue"],
      timeout: 5000,
    });
    await settle();
    expect(shownTitle(host)).to.equal("Abandoned confirm");
    const badge = part(host, "queue-timed")!;
    expect(badge.checkVisibility()).to.equal(true);
    expect(badge.textContent!.replace(/\s+/g, " ").trim()).to.equal("⏱ 5s · Quick! Pick one");
    // Its name is what it shows (WCAG 2.5.3, label in name).
    expect(badge.hasAttribute("aria-label")).to.equal(false);
    const status = host.shadowRoot!.querySelector("[role=status]")!;
    expect(status.textContent).to.equal("Also waiting: Quick! Pick one, closes in 5 seconds");

    clock.advance(2000);
    await settle();
    expect(part(host, "queue-timed")!.textContent).to.contain("3s");
    // The announcement is made once, not at every tick.
    expect(status.textContent).to.equal("Also waiting: Quick! Pick one, closes in 5 seconds");

    await click(part(host, "queue-timed")!);
    expect(shownTitle(host)).to.equal("Quick! Pick one");
    expect(shown(host).shadowRoot!.querySelector('[part~="countdown"]')!.textContent).to.contain("3");
    expect(shown(host).shadowRoot!.contains(deepActive())).to.equal(true);
    expect(part(host, "queue-timed")).to.equal(null);
    await sendKeys({ press: "ArrowDown" });
    await sendKeys({ press: "Enter" });
    await settle();
    expect(agent.responses()).to.deep.equal([{ type: "extension_ui_response", id: timed, value: "blue" }]);
    expect(shownTitle(host)).to.equal("Abandoned confirm");
  });

  it("the prompt stays usable while dialogs wait", async () => {
    agent.request("confirm", { title: "Waiting", message: "" });
    await settle();
    const field = prompt.shadowRoot!.querySelector("textarea")!;
    expect(field.checkVisibility()).to.equal(true);
    await click(field);
    await sendKeys({ type: "status?" });
    await sendKeys({ press: "Enter" });
    await settle();
    expect(agent.commands()).to.deep.include({ type: "prompt", message: "status?" });
    expect(shownTitle(host)).to.equal("Waiting");
  });

  it("names the queue bar and its buttons in the nearest language, and points the arrows the way the page reads", async () => {
    const wrapper = await fixture<HTMLElement>(
      html`<div lang="ja" dir="rtl"><pi-extension-ui .session=${agent.session}></pi-extension-ui></div>`,
    );
    const local = wrapper.querySelector("pi-extension-ui")!;
    agent.request("input", { title: "a" });
    agent.request("input", { title: "b" });
    await settle();
    expect(part(local, "queue")!.getAttribute("aria-label")).to.equal("待機中のダイアログ");
    expect(part(local, "queue-next")!.getAttribute("aria-label")).to.equal("次のダイアログ");
    const arrow = part(local, "queue-next")!.querySelector(".arrow")!;
    expect(getComputedStyle(arrow).transform).to.equal("matrix(-1, 0, 0, 1, 0, 0)");
    const next = part(local, "queue-next")!.getBoundingClientRect();
    const previous = part(local, "queue-previous")!.getBoundingClientRect();
    expect(next.left).to.be.lessThan(previous.left);
  });
});
