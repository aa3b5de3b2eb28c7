/**
 * The arming time of every dialog element: a key press, click or tap that began before the dialog had been on screen
 * for `armingTime` never answers it, and while it arms its controls say they are not active yet. Time runs on the
 * session's clock, here a manual one, so "during" and "after" are exact instants, not sleeps.
 */
import { expect, fixture, html, waitUntil } from "@open-wc/testing";
import { emulateMedia, executeServerCommand, sendKeys, sendMouse } from "@web/test-runner-commands";
import { keyDown, keyUp } from "../../../test/support/engine.js";
import { DialogElement } from "../src/base/dialog-element.js";
import "../src/elements/extension-ui/define.js";
import "../src/elements/prompt/define.js";
import type { PiConfirm } from "../src/elements/confirm/confirm.js";
import type { PiExtensionUi } from "../src/elements/extension-ui/extension-ui.js";
import type { PiPrompt } from "../src/elements/prompt/prompt.js";
import { settle, TestAgent } from "./support/agent.js";
import { type AnyDialog, deepActive, dialogCases, recordEvents } from "./support/dialogs.js";
import { FakeClock } from "./support/fake-clock.js";

const ARMING = DialogElement.defaultArmingTime;

function center(el: Element): [number, number] {
  const box = el.getBoundingClientRect();
  return [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)];
}

async function click(el: Element): Promise<void> {
  await sendMouse({ type: "click", position: center(el) });
}

/** The controls a user can press in an open dialog element. */
function controls(el: HTMLElement): Element[] {
  return [...el.shadowRoot!.querySelectorAll("button, input, textarea, [role=listbox]")];
}

function part(el: HTMLElement, name: string): HTMLElement {
  return el.shadowRoot!.querySelector<HTMLElement>(`[part~=${name}]`)!;
}

async function openConfirm(clock: FakeClock, extra: Partial<PiConfirm> = {}): Promise<PiConfirm> {
  const el = await fixture<PiConfirm>(
    html`<pi-confirm heading="Allow this command?" message="rm -rf build/" .clock=${clock}></pi-confirm>`,
  );
  Object.assign(el, extra);
  el.show();
  await el.updateComplete;
  return el;
}

describe("arming: a press that began in a dialog's first moments never answers it", () => {
  it("the default is 500 ms", () => {
    expect(ARMING).to.equal(500);
  });

  for (const dialog of dialogCases) {
    it(`${dialog.tag}: Enter and Space while it arms do nothing, its controls say so; after ${ARMING} ms Enter answers`, async () => {
      const clock = new FakeClock();
      const el = dialog.create();
      el.clock = clock;
      await fixture(html`<div>${el}</div>`);
      el.show();
      await el.updateComplete;
      const events = recordEvents(el);
      expect(el.arming).to.equal(true);
      expect(controls(el).length).to.be.above(0);
      for (const control of controls(el))
        expect(control.getAttribute("aria-disabled"), control.outerHTML).to.equal("true");
      expect(part(el, "arming"), "the arming bar").to.exist;
      await sendKeys({ press: "Enter" });
      await sendKeys({ press: " " });
      clock.advance(ARMING - 1);
      await sendKeys({ press: "Enter" });
      expect(events).to.deep.equal([]);
      expect(el.open).to.equal(true);
      clock.advance(1);
      await el.updateComplete;
      expect(el.arming).to.equal(false);
      for (const control of controls(el))
        expect(control.hasAttribute("aria-disabled"), control.outerHTML).to.equal(false);
      expect(el.shadowRoot!.querySelector("[part~=arming]")).to.equal(null);
      await sendKeys({ press: "Enter" });
      expect(events).to.deep.equal([{ type: "pi-submit", detail: dialog.enterAnswer }]);
    });
  }

  it("pi-confirm: Space on the focused button while it arms does nothing; after arming Space answers", async () => {
    const clock = new FakeClock();
    const el = await openConfirm(clock);
    const events = recordEvents(el);
    await sendKeys({ press: "ArrowRight" }); // blocked too: focus stays on No
    expect(deepActive()).to.equal(part(el, "no-button"));
    await sendKeys({ press: " " });
    expect(events).to.deep.equal([]);
    clock.advance(ARMING);
    await el.updateComplete;
    await sendKeys({ press: " " });
    expect(events).to.deep.equal([{ type: "pi-submit", detail: { confirmed: false } }]);
  });

  it("a key held from while it armed stays ignored after arming ends; a new press answers", async () => {
    const clock = new FakeClock();
    const el = await openConfirm(clock);
    const events = recordEvents(el);
    // keyDown and keyUp resolve once the page has the key (test/support/engine.ts): the press reaches the page before
    // arming ends, and the auto-repeat (WebKit's driver sends none) comes before the release.
    await keyDown("Enter");
    clock.advance(ARMING);
    await el.updateComplete;
    await keyDown("Enter"); // auto-repeat of the press that began while arming
    await keyUp("Enter");
    expect(events).to.deep.equal([]);
    await sendKeys({ press: "Enter" });
    expect(events).to.deep.equal([{ type: "pi-submit", detail: { confirmed: false } }]);
  });

  it("a key press that began in the same tick of the page's clock as arming's end still counts as before it", async () => {
    // Firefox and WebKit give pages whole milliseconds: a keydown that came 0.3 ms before arming ended has the same
    // timeStamp as its end (seen once in Firefox on a busy machine: the held Enter's auto-repeat answered). The page's
    // clock is held at the keydown's own timeStamp here, so the two are equal in every engine.
    // pi-select answers Enter in its own keydown listener (a button answers in its activation, which a script's
    // event does not start).
    const clock = new FakeClock();
    const el = dialogCases.find((c) => c.tag === "pi-select")!.create();
    el.clock = clock;
    await fixture(html`<div>${el}</div>`);
    el.show();
    await el.updateComplete;
    const events = recordEvents(el);
    const target = deepActive()!;
    const press = new KeyboardEvent("keydown", { key: "Enter", code: "Enter", bubbles: true, composed: true });
    target.dispatchEvent(press);
    const realNow = performance.now;
    performance.now = () => press.timeStamp;
    try {
      clock.advance(ARMING);
    } finally {
      performance.now = realNow;
    }
    await el.updateComplete;
    expect(el.arming).to.equal(false);
    const repeat = { key: "Enter", code: "Enter", bubbles: true, composed: true, repeat: true };
    target.dispatchEvent(new KeyboardEvent("keydown", repeat));
    target.dispatchEvent(new KeyboardEvent("keyup", { ...repeat, repeat: false }));
    expect(events).to.deep.equal([]);
    target.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", code: "Enter", bubbles: true, composed: true }));
    expect(events).to.deep.equal([{ type: "pi-submit", detail: { value: "sonnet" } }]);
  });

  it("a mouse click while it arms does nothing; a click after arming answers", async () => {
    const clock = new FakeClock();
    const el = await openConfirm(clock);
    const events = recordEvents(el);
    await click(part(el, "yes-button"));
    await click(part(el, "no-button"));
    expect(events).to.deep.equal([]);
    clock.advance(ARMING);
    await el.updateComplete;
    await click(part(el, "yes-button"));
    expect(events).to.deep.equal([{ type: "pi-submit", detail: { confirmed: true } }]);
  });

  it("a finger tap while it arms does nothing; a tap after arming answers", async function (this: Mocha.Context) {
    const clock = new FakeClock();
    const el = await openConfirm(clock);
    const events = recordEvents(el);
    const [x, y] = center(part(el, "yes-button"));
    // No tap in WebKit here: WebKitWebDriver turns a WebDriver touch pointer into mouse events (see select's tests),
    // so the mouse test above is what WebKit gets.
    if (!(await executeServerCommand("tap", { x, y }))) return this.skip();
    expect(events).to.deep.equal([]);
    clock.advance(ARMING);
    await el.updateComplete;
    await executeServerCommand("tap", { x, y });
    expect(events).to.deep.equal([{ type: "pi-submit", detail: { confirmed: true } }]);
  });

  it("a modal's backdrop click while it arms does nothing; after arming it cancels", async () => {
    const clock = new FakeClock();
    const el = await openConfirm(clock, { modal: true });
    await el.updateComplete;
    const events = recordEvents(el);
    await sendMouse({ type: "click", position: [2, 2] });
    expect(events).to.deep.equal([]);
    clock.advance(ARMING);
    await el.updateComplete;
    await sendMouse({ type: "click", position: [2, 2] });
    expect(events).to.deep.equal([{ type: "pi-cancel", detail: { source: "backdrop" } }]);
  });

  it("the bar fills over the arming time, and stands still (full, faint) under prefers-reduced-motion", async function (this: Mocha.Context) {
    const clock = new FakeClock();
    const el = await openConfirm(clock, { armingTime: 800 });
    el.cancel();
    el.show(); // opened again with its own arming time
    await el.updateComplete;
    const bar = part(el, "arming");
    expect(getComputedStyle(bar).animationName).to.equal("pi-arming");
    expect(getComputedStyle(bar).animationDuration).to.equal("0.8s");
    try {
      await emulateMedia({ reducedMotion: "reduce" });
    } catch {
      // Only Chromium's driver emulates media features here (Firefox over WebDriver BiDi and WebKitWebDriver refuse).
      return this.skip();
    }
    try {
      expect(getComputedStyle(bar).animationName).to.equal("none");
      const content = part(el, "content");
      expect(bar.getBoundingClientRect().width).to.be.closeTo(content.getBoundingClientRect().width, 1);
    } finally {
      await emulateMedia({ reducedMotion: "no-preference" });
    }
  });

  it("pi-extension-ui modal: a backdrop click while the dialog arms does nothing; after arming it cancels", async () => {
    const clock = new FakeClock();
    const agent = new TestAgent(clock);
    const host = await fixture<PiExtensionUi>(
      html`<pi-extension-ui modal .session=${agent.session}></pi-extension-ui>`,
    );
    agent.send({ type: "extension_ui_request", id: "m", method: "confirm", title: "Allow?", message: "rm -rf build/" });
    await settle();
    await host.updateComplete;
    const shown = host.shadowRoot!.querySelector<AnyDialog>("[part~=dialog-element]")!;
    await shown.updateComplete;
    expect(shown.arming).to.equal(true);
    await sendMouse({ type: "click", position: [2, 2] });
    await settle();
    expect(agent.responses()).to.deep.equal([]);
    clock.advance(ARMING);
    await sendMouse({ type: "click", position: [2, 2] });
    await settle();
    expect(agent.responses()).to.deep.equal([{ type: "extension_ui_response", id: "m", cancelled: true }]);
  });

  it("Escape cancels at once, even while it arms: cancelling is never destructive", async () => {
    const clock = new FakeClock();
    const el = await openConfirm(clock);
    const events = recordEvents(el);
    expect(el.arming).to.equal(true);
    await sendKeys({ press: "Escape" });
    expect(events).to.deep.equal([{ type: "pi-cancel", detail: { source: "keyboard" } }]);
  });

  it("a page's submit() and click() are not presses: they answer while it arms", async () => {
    const clock = new FakeClock();
    const el = await openConfirm(clock);
    const events = recordEvents(el);
    part(el, "yes-button").click();
    expect(events).to.deep.equal([{ type: "pi-submit", detail: { confirmed: true } }]);
  });

  it("arming-time sets the time, 0 turns it off; DialogElement.defaultArmingTime sets it for every dialog", async () => {
    const clock = new FakeClock();
    const slow = await fixture<PiConfirm>(html`<pi-confirm arming-time="1000" .clock=${clock}></pi-confirm>`);
    slow.show();
    await slow.updateComplete;
    clock.advance(999);
    expect(slow.arming).to.equal(true);
    clock.advance(1);
    expect(slow.arming).to.equal(false);
    const off = await openConfirm(clock, {});
    off.armingTime = 0;
    off.show(); // read each time it comes on screen: close and open again
    off.cancel();
    off.show();
    await off.updateComplete;
    expect(off.arming).to.equal(false);
    const events = recordEvents(off);
    await sendKeys({ press: "Enter" });
    expect(events).to.deep.equal([{ type: "pi-submit", detail: { confirmed: false } }]);
    const saved = DialogElement.defaultArmingTime;
    DialogElement.defaultArmingTime = 0;
    try {
      const page = await openConfirm(clock);
      expect(page.arming).to.equal(false);
      expect(clock.pending).to.equal(0);
    } finally {
      DialogElement.defaultArmingTime = saved;
    }
  });

  it("pi-extension-ui: a dialog arms on the session's clock, and again each time the queue shows it", async () => {
    const clock = new FakeClock();
    const agent = new TestAgent(clock);
    const host = await fixture<PiExtensionUi>(html`<pi-extension-ui .session=${agent.session}></pi-extension-ui>`);
    agent.send({ type: "extension_ui_request", id: "a", method: "confirm", title: "First", message: "one" });
    agent.send({ type: "extension_ui_request", id: "b", method: "confirm", title: "Second", message: "two" });
    await settle();
    await host.updateComplete;
    const shown = () => host.shadowRoot!.querySelector<AnyDialog>("[part~=dialog-element]")!;
    expect(shown().heading).to.equal("First");
    expect(shown().arming).to.equal(true);
    clock.advance(ARMING);
    expect(shown().arming).to.equal(false);
    host.showDialog("b");
    await host.updateComplete;
    expect(shown().heading).to.equal("Second");
    expect(shown().arming).to.equal(true);
    clock.advance(ARMING);
    host.showDialog("a");
    await host.updateComplete;
    expect(shown().heading).to.equal("First");
    expect(shown().arming, "shown again: arms again").to.equal(true);
  });

  it("the double Enter: the prompt's second Enter lands on the gate that just appeared and does nothing", async () => {
    const clock = new FakeClock();
    const agent = new TestAgent(clock);
    const host = await fixture<PiExtensionUi>(
      html`<pi-extension-ui .session=${agent.session}><pi-prompt .session=${agent.session}></pi-prompt></pi-extension-ui>`,
    );
    const prompt = host.querySelector<PiPrompt>("pi-prompt")!;
    await prompt.updateComplete;
    prompt.shadowRoot!.querySelector("textarea")!.focus();
    await sendKeys({ type: "/gate" });
    await sendKeys({ press: "Enter" }); // the first press sends the command...
    await settle();
    agent.send({
      type: "extension_ui_request",
      id: "gate",
      method: "confirm",
      title: "Allow this command?",
      message: "rm -rf build/",
      timeout: 10_000,
    });
    await settle(); // ...pi runs it and opens its gate, which takes focus...
    const gate = host.shadowRoot!.querySelector<PiConfirm>("pi-confirm")!;
    await waitUntil(() => deepActive() === part(gate, "no-button"), "focus on the gate's No");
    await sendKeys({ press: "Enter" }); // ...and the second press of the double press lands on it
    await settle();
    expect(agent.responses()).to.deep.equal([]);
    expect(agent.received.filter((record) => record.type === "prompt")).to.have.length(1);
    clock.advance(ARMING);
    await gate.updateComplete;
    await sendKeys({ press: "ArrowLeft" });
    await sendKeys({ press: "Enter" }); // deliberate
    await settle();
    expect(agent.responses()).to.deep.equal([{ type: "extension_ui_response", id: "gate", confirmed: true }]);
  });
});
