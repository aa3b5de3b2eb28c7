import { expect, fixture, html } from "@open-wc/testing";
import { sendKeys } from "@web/test-runner-commands";
import { engine, pressCombo } from "../../../test/support/engine.js";
import { composition } from "../../../test/support/ime.js";
import "../src/elements/input/define.js";
import type { PiInput } from "../src/elements/input/input.js";
import { deepActive, recordEvents, withoutArming } from "./support/dialogs.js";
import { FakeSession } from "./support/fake-session.js";

withoutArming();

async function openInput(placeholder = "feature/…", modal = false): Promise<PiInput> {
  const el = await fixture<PiInput>(
    html`<pi-input heading="Branch" placeholder=${placeholder} ?modal=${modal}></pi-input>`,
  );
  el.show();
  await el.updateComplete;
  return el;
}

function field(el: PiInput): HTMLInputElement {
  return el.shadowRoot!.querySelector("input")!;
}

describe("pi-input", () => {
  it("shows the placeholder in a focused one-line field labelled by the heading", async () => {
    const el = await openInput("e.g. main");
    expect(field(el).placeholder).to.equal("e.g. main");
    expect(field(el).type).to.equal("text");
    expect(deepActive()).to.equal(field(el));
    expect(field(el).getAttribute("aria-labelledby")).to.equal("heading");
  });

  it("Enter submits what was typed", async () => {
    const el = await openInput();
    const events = recordEvents(el);
    await sendKeys({ type: "fix/ほげ 🙂" });
    await sendKeys({ press: "Enter" });
    expect(events).to.deep.equal([{ type: "pi-submit", detail: { value: "fix/ほげ 🙂" } }]);
    expect(el.value).to.equal("fix/ほげ 🙂");
  });

  it("Enter submits even when empty", async () => {
    const el = await openInput();
    const events = recordEvents(el);
    await sendKeys({ press: "Enter" });
    expect(events).to.deep.equal([{ type: "pi-submit", detail: { value: "" } }]);
  });

  it("the Submit and Cancel buttons answer by mouse", async () => {
    const el = await openInput();
    const events = recordEvents(el);
    await sendKeys({ type: "x" });
    el.shadowRoot!.querySelector<HTMLButtonElement>("[part~=submit-button]")!.click();
    el.show();
    await el.updateComplete;
    el.shadowRoot!.querySelector<HTMLButtonElement>("[part~=cancel-button]")!.click();
    expect(events).to.deep.equal([
      { type: "pi-submit", detail: { value: "x" } },
      { type: "pi-cancel", detail: { source: "button" } },
    ]);
  });

  it("Enter during an IME composition (isComposing, keyCode 229, between composition events) never submits", async () => {
    const el = await openInput();
    const events = recordEvents(el);
    const input = field(el);
    const enter = (init: KeyboardEventInit) =>
      input.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true, composed: true, ...init }));
    enter({ isComposing: true });
    enter({ keyCode: 229 });
    input.dispatchEvent(new CompositionEvent("compositionstart", { bubbles: true, composed: true, data: "" }));
    enter({});
    input.dispatchEvent(new CompositionEvent("compositionend", { bubbles: true, composed: true, data: "日本" }));
    expect(events).to.deep.equal([]);
    enter({});
    expect(events).to.deep.equal([{ type: "pi-submit", detail: { value: "" } }]);
  });

  for (const [language, name, reading, committed] of [
    ["ja", "reading-convert-enter", "にほんご", "日本語"],
    ["zh", "pinyin-enter", "中文", "zhongwen"],
  ] as const) {
    it(`a real IME composition (${language}, ${name}): Enter commits the text, the next Enter submits`, async () => {
      const el = await openInput();
      const events = recordEvents(el);
      const ime = await composition(field(el), language, name);
      await ime.play("compose");
      expect(field(el).value).to.equal(reading);
      await ime.play("convert");
      await ime.play("enter");
      expect(events).to.deep.equal([]);
      expect(field(el).value).to.equal(committed);
      await sendKeys({ press: "Enter" });
      expect(events).to.deep.equal([{ type: "pi-submit", detail: { value: committed } }]);
    });
  }

  it("WebKit, live: GTK's own input method (Ctrl+Shift+U, a code point, Enter) commits あ; the next Enter submits", async function (this: Mocha.Context) {
    // WebKitWebDriver's keys reach GTK's built-in input method (not IBus): its Unicode entry is a real
    // composition in WebKitGTK, the one a driver can make live there. It shows no preedit events: the Enter that
    // commits is a keydown 229 "Unidentified", then the text and compositionend.
    if ((await engine()).name !== "webkit") return this.skip();
    const el = await openInput();
    const events = recordEvents(el);
    const seen: string[] = [];
    for (const type of ["keydown", "compositionend"]) {
      field(el).addEventListener(type, (event) => {
        seen.push(
          event instanceof KeyboardEvent ? `${type} ${event.keyCode}` : `${type} ${(event as CompositionEvent).data}`,
        );
      });
    }
    await pressCombo("Control+Shift+u");
    await sendKeys({ type: "3042" });
    await sendKeys({ press: "Enter" });
    expect(events).to.deep.equal([]);
    expect(field(el).value).to.equal("あ");
    expect(seen).to.include.members(["keydown 229", "compositionend あ"]);
    await sendKeys({ press: "Enter" });
    expect(events).to.deep.equal([{ type: "pi-submit", detail: { value: "あ" } }]);
  });

  for (const [language, name, modal] of [
    ["ja", "reading-escape", false],
    ["zh", "pinyin-escape", false],
    // A modal also takes Escape on its <dialog> (the overlay's own handler): the composition's still is not it.
    ["ja", "reading-escape", true],
  ] as const) {
    it(`Esc during a real IME composition (${language}, ${name}${modal ? ", modal" : ""}) cancels the composition, not the dialog`, async () => {
      const el = await openInput(undefined, modal);
      const events = recordEvents(el);
      const ime = await composition(field(el), language, name);
      await ime.play("compose");
      expect(field(el).value).to.not.equal("");
      await ime.play("cancel");
      expect(events).to.deep.equal([]);
      expect(el.open).to.equal(true);
      expect(field(el).value).to.equal("");
      await sendKeys({ press: "Escape" });
      expect(events).to.deep.equal([{ type: "pi-cancel", detail: { source: "keyboard" } }]);
    });
  }

  it("session-driven: the request's placeholder and title, answered with {value}", async () => {
    const session = new FakeSession();
    const el = await fixture<PiInput>(html`<pi-input .session=${session}></pi-input>`);
    el.request = { type: "extension_ui_request", id: "i1", method: "input", title: "Name?", placeholder: "your name" };
    await el.updateComplete;
    expect(field(el).placeholder).to.equal("your name");
    await sendKeys({ type: "Ada" });
    await sendKeys({ press: "Enter" });
    expect(session.sent).to.deep.equal([{ id: "i1", answer: { value: "Ada" } }]);
  });

  it("a request without a placeholder shows none; reopening starts empty", async () => {
    const session = new FakeSession();
    const el = await fixture<PiInput>(html`<pi-input .session=${session}></pi-input>`);
    el.request = { type: "extension_ui_request", id: "a", method: "input", title: "A", placeholder: "first" };
    await el.updateComplete;
    await sendKeys({ type: "typed" });
    await sendKeys({ press: "Enter" });
    el.request = { type: "extension_ui_request", id: "b", method: "input", title: "B" };
    await el.updateComplete;
    expect(field(el).placeholder).to.equal("");
    expect(field(el).value).to.equal("");
  });
});
