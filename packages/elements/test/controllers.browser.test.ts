/** The shared dialog controllers on their own: countdown arithmetic, type-ahead matching, key guard, focus return. */

import { expect, fixture, html, nextFrame } from "@open-wc/testing";
import { sendKeys } from "@web/test-runner-commands";
import { LitElement } from "lit";
import { keyDown, keyUp } from "../../../test/support/engine.js";
import { CountdownController } from "../src/controllers/countdown-controller.js";
import { OverlayController } from "../src/controllers/overlay-controller.js";
import { PressGuardController } from "../src/controllers/press-guard-controller.js";
import { TypeaheadController } from "../src/controllers/typeahead-controller.js";
import "../src/elements/input/define.js";
import type { PiInput } from "../src/elements/input/input.js";
import { settle, TestAgent } from "./support/agent.js";
import { type AnyDialog, recordEvents, withoutArming } from "./support/dialogs.js";
import { FakeClock } from "./support/fake-clock.js";

withoutArming();

class ControllerHost extends LitElement {
  expired = 0;
  readonly countdown = new CountdownController(this, () => this.expired++);
  readonly typeahead = new TypeaheadController(this);
  readonly pressGuard = new PressGuardController(this);
  readonly overlay = new OverlayController(this, { onCancel: () => {}, focusTarget: () => this });
  override render() {
    return this.overlay.render(html`<button>in the overlay</button>`);
  }
}
customElements.define("controller-host", ControllerHost);

async function host(): Promise<ControllerHost> {
  return fixture<ControllerHost>(html`<controller-host tabindex="-1"></controller-host>`);
}

describe("CountdownController", () => {
  it("shows ceil(remaining / 1000) and ticks on whole seconds", async () => {
    const el = await host();
    const clock = new FakeClock();
    el.countdown.start(clock.now() + 2001, clock);
    expect(el.countdown.seconds).to.equal(3);
    clock.advance(1);
    expect(el.countdown.seconds).to.equal(2);
    clock.advance(999);
    expect(el.countdown.seconds).to.equal(2);
    clock.advance(1);
    expect(el.countdown.seconds).to.equal(1);
    expect(el.expired).to.equal(0);
    clock.advance(1000);
    expect(el.expired).to.equal(1);
    expect(el.countdown.seconds).to.equal(undefined);
    expect(clock.pending).to.equal(0);
  });

  it("a deadline already past expires at once; stop() cancels the timer", async () => {
    const el = await host();
    const clock = new FakeClock();
    el.countdown.start(clock.now() - 5, clock);
    expect(el.expired).to.equal(1);
    el.countdown.start(clock.now() + 5000, clock);
    el.countdown.stop();
    clock.advance(10_000);
    expect(el.expired).to.equal(1);
    expect(clock.pending).to.equal(0);
  });

  it("a deadline that is not a finite number starts nothing", async () => {
    const el = await host();
    const clock = new FakeClock();
    el.countdown.start(Number.POSITIVE_INFINITY, clock);
    el.countdown.start(Number.NaN, clock);
    expect(el.countdown.seconds).to.equal(undefined);
    expect(clock.pending).to.equal(0);
    expect(el.expired).to.equal(0);
  });

  it("pauses its timer while the host is out of the document and resumes towards the same deadline", async () => {
    const el = await host();
    const clock = new FakeClock();
    el.countdown.start(clock.now() + 3000, clock);
    const parent = el.parentElement!;
    el.remove();
    expect(clock.pending).to.equal(0);
    clock.advance(2500);
    parent.append(el);
    expect(el.countdown.seconds).to.equal(1);
    clock.advance(500);
    expect(el.expired).to.equal(1);
  });
});

describe("TypeaheadController", () => {
  it("forgets the search after a second", async () => {
    const el = await host();
    const clock = new FakeClock();
    el.typeahead.clock = clock;
    const labels = ["abc", "abd", "bcd"];
    expect(el.typeahead.type("a", labels, 0)).to.equal(1);
    expect(el.typeahead.type("b", labels, 1)).to.equal(1);
    expect(el.typeahead.active).to.equal(true);
    clock.advance(999);
    expect(el.typeahead.active).to.equal(true);
    clock.advance(1);
    expect(el.typeahead.active).to.equal(false);
    expect(el.typeahead.type("b", labels, 1)).to.equal(2);
  });

  it("matches case-insensitively, after NFKC, by code point; -1 when nothing matches", async () => {
    const el = await host();
    el.typeahead.clock = new FakeClock();
    expect(el.typeahead.type("Ｅ", ["x", "éa", "Entry"], 0)).to.equal(2); // full-width Ｅ folds to e
    el.typeahead.reset();
    expect(el.typeahead.type("x", ["a", "𝒳 math"], 0)).to.equal(1); // NFKC maps 𝒳 to X
    el.typeahead.reset();
    expect(el.typeahead.type("😀", ["a", "😀 smile"], 0)).to.equal(1);
    el.typeahead.reset();
    expect(el.typeahead.type("q", ["a", "b"], 0)).to.equal(-1);
    expect(el.typeahead.type("q", [], -1)).to.equal(-1);
  });
});

describe("PressGuardController", () => {
  it("blocks events created before arming and presses that began before it", async () => {
    const el = await host();
    el.focus();
    const clock = new FakeClock();
    const early = new KeyboardEvent("keydown", { key: "x", code: "KeyX" });
    // Firefox keeps time at 1 ms precision with jitter: wait until the clock is clearly past the event's creation.
    while (performance.now() < early.timeStamp + 5) await nextFrame();
    el.pressGuard.arm(clock, 0);
    expect(el.pressGuard.allowsKey(early)).to.equal(false);
    await nextFrame();
    expect(el.pressGuard.allowsKey(new KeyboardEvent("keydown", { key: "x", code: "KeyX" }))).to.equal(true);
    await keyDown("Shift");
    el.pressGuard.arm(clock, 0);
    const seen: KeyboardEvent[] = [];
    el.addEventListener("keydown", (event) => seen.push(event));
    await keyDown("Shift"); // auto-repeat of a key held since before arming
    await keyUp("Shift");
    await sendKeys({ press: "Shift" });
    expect(seen.map((event) => event.repeat)).to.deep.equal([false]);
  });

  it("while arming on its clock, blocks presses that begin (Escape and Tab excepted) and marks the controls", async () => {
    const el = await host();
    el.focus();
    const clock = new FakeClock();
    el.pressGuard.arm(clock, 500);
    await el.updateComplete;
    const control = el.shadowRoot!.querySelector("button")!;
    expect(el.pressGuard.arming).to.equal(true);
    expect(control.getAttribute("aria-disabled")).to.equal("true");
    const seen: string[] = [];
    el.addEventListener("keydown", (event) => seen.push(event.key));
    await sendKeys({ press: "x" });
    await sendKeys({ press: "Escape" });
    clock.advance(499);
    await sendKeys({ press: "y" });
    expect(el.pressGuard.arming).to.equal(true);
    clock.advance(1);
    await el.updateComplete;
    expect(el.pressGuard.arming).to.equal(false);
    expect(control.hasAttribute("aria-disabled")).to.equal(false);
    await sendKeys({ press: "z" });
    expect(seen).to.deep.equal(["Escape", "z"]);
    expect(clock.pending).to.equal(0);
  });
});

describe("OverlayController", () => {
  it("moves focus in on open and returns it on close, only when it is still inside or lost to body", async () => {
    const wrapper = await fixture<HTMLDivElement>(
      html`<div><button id="a">a</button><button id="b">b</button><controller-host tabindex="-1"></controller-host></div>`,
    );
    const [a, b] = [...wrapper.querySelectorAll("button")];
    const el = wrapper.querySelector<ControllerHost>("controller-host")!;
    a!.focus();
    el.overlay.set(true, false);
    await el.updateComplete;
    await nextFrame();
    expect(document.activeElement).to.equal(el);
    expect(el.shadowRoot!.querySelector("dialog")!.open).to.equal(true);
    el.overlay.set(false, false);
    await el.updateComplete;
    expect(document.activeElement).to.equal(a);
    expect(el.shadowRoot!.querySelector("dialog")!.open).to.equal(false);
    el.overlay.set(true, true);
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector("dialog")!.matches(":modal")).to.equal(true);
    el.overlay.set(true, false);
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector("dialog")!.matches(":modal"), "shown again inline").to.equal(false);
    b!.focus(); // the user went elsewhere
    el.overlay.set(false, false);
    await el.updateComplete;
    expect(document.activeElement).to.equal(b);
  });
});

describe("DialogElement timing edge cases", () => {
  it("timeout 0 means no countdown, as in pi", async () => {
    const el = await fixture<PiInput>(html`<pi-input heading="T" timeout="0"></pi-input>`);
    el.clock = new FakeClock();
    el.show();
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector("[part=countdown]")).to.equal(null);
    (el.clock as FakeClock).advance(100_000);
    expect(el.open).to.equal(true);
  });

  it("a timeout that is not a finite number (NaN from a bad attribute, Infinity) means none", async () => {
    const clock = new FakeClock();
    for (const timeout of [Number.NaN, Number.POSITIVE_INFINITY, -5]) {
      const el = await fixture<PiInput>(html`<pi-input heading="T" .clock=${clock} .timeout=${timeout}></pi-input>`);
      el.show();
      await el.updateComplete;
      expect(el.shadowRoot!.querySelector("[part=countdown]")).to.equal(null);
      expect(clock.pending).to.equal(0);
    }
    const el = await fixture<PiInput>(html`<pi-input heading="T" timeout="soon"></pi-input>`);
    el.show();
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector("[part=countdown]")).to.equal(null);
  });

  it("a session deadline already past (its timer not run yet, a throttled tab): an answer is the timeout", async () => {
    const clock = new FakeClock();
    const agent = new TestAgent(clock);
    const el = await fixture<PiInput>(html`<pi-input></pi-input>`);
    const events = recordEvents(el);
    agent.send({ type: "extension_ui_request", id: "late", method: "input", title: "Late", timeout: 1000 });
    await settle();
    clock.jump(2000);
    await agent.ask(el as unknown as AnyDialog, agent.session.ui.getSnapshot().dialogs[0]!.request);
    expect(el.open).to.equal(true, "the element never cancels on its own");
    expect(el.shadowRoot!.querySelector("[part=countdown]")).to.equal(null);
    el.submit();
    await settle();
    expect(el.open).to.equal(false);
    expect(events).to.deep.equal([{ type: "pi-cancel", detail: { source: "timeout" } }]);
    expect(agent.responses()).to.deep.equal([{ type: "extension_ui_response", id: "late", cancelled: true }]);
  });

  it("a queued dialog counts down the time its session gives it, not its request's timeout", async () => {
    const clock = new FakeClock();
    const agent = new TestAgent(clock);
    const el = await fixture<PiInput>(html`<pi-input></pi-input>`);
    agent.send({ type: "extension_ui_request", id: "q", method: "input", title: "Q", timeout: 10_000 });
    await settle();
    clock.advance(8000);
    await agent.ask(el as unknown as AnyDialog, agent.session.ui.getSnapshot().dialogs[0]!.request);
    expect(el.shadowRoot!.querySelector("[part=countdown]")!.textContent).to.contain("(2s)");
    await agent.ask(el as unknown as AnyDialog, {
      type: "extension_ui_request",
      id: "r",
      method: "input",
      title: "R",
      timeout: 7000,
    });
    expect(el.shadowRoot!.querySelector("[part=countdown]")!.textContent).to.contain("(7s)");
  });
});
