import { expect, fixture, html } from "@open-wc/testing";
import { sendKeys } from "@web/test-runner-commands";
import "../src/elements/editor/define.js";
import { pressCombo } from "../../../test/support/engine.js";
import { composition } from "../../../test/support/ime.js";
import type { PiEditor } from "../src/elements/editor/editor.js";
import { settle, TestAgent } from "./support/agent.js";
import { type AnyDialog, deepActive, recordEvents, withoutArming } from "./support/dialogs.js";
import { FakeClock } from "./support/fake-clock.js";

withoutArming();

async function openEditor(value = "", submitOn?: string): Promise<PiEditor> {
  const el = await fixture<PiEditor>(html`<pi-editor heading="Edit" .value=${value}></pi-editor>`);
  if (submitOn) el.setAttribute("submit-on", submitOn);
  el.show();
  await el.updateComplete;
  return el;
}

function area(el: PiEditor): HTMLTextAreaElement {
  return el.shadowRoot!.querySelector("textarea")!;
}

const TRICKY = "tab\there\u2028line separator\u2029para\n😀👩‍👩‍👧 emoji\n中文 日本語 한국어\n\n\n";

describe("pi-editor", () => {
  it("opens with the prefill in a focused multi-line field", async () => {
    const el = await openEditor("line 1\nline 2");
    expect(area(el).value).to.equal("line 1\nline 2");
    expect(deepActive()).to.equal(area(el));
  });

  it("Shift+Enter inserts a newline; Enter submits (pi's convention)", async () => {
    const el = await openEditor();
    const events = recordEvents(el);
    await sendKeys({ type: "first" });
    await pressCombo("Shift+Enter");
    await sendKeys({ type: "second" });
    expect(events).to.deep.equal([]);
    await sendKeys({ press: "Enter" });
    expect(events).to.deep.equal([{ type: "pi-submit", detail: { value: "first\nsecond" } }]);
  });

  it('submit-on="mod-enter": Enter inserts a newline, Ctrl+Enter submits, and the hint says so', async () => {
    const el = await openEditor("", "mod-enter");
    const events = recordEvents(el);
    expect(el.shadowRoot!.querySelector("[part~=hint]")!.textContent).to.equal("Ctrl+Enter to submit");
    await sendKeys({ type: "a" });
    await sendKeys({ press: "Enter" });
    await sendKeys({ type: "b" });
    expect(events).to.deep.equal([]);
    await pressCombo("Control+Enter");
    expect(events).to.deep.equal([{ type: "pi-submit", detail: { value: "a\nb" } }]);
  });

  it("returns the text exactly as edited: tabs, U+2028/U+2029, emoji, CJK, trailing newlines (on the wire too)", async () => {
    const clock = new FakeClock();
    const agent = new TestAgent(clock);
    const el = await fixture<PiEditor>(html`<pi-editor></pi-editor>`);
    await agent.ask(el as unknown as AnyDialog, {
      type: "extension_ui_request",
      id: "e1",
      method: "editor",
      title: "Edit",
      prefill: TRICKY,
    });
    expect(area(el).value).to.equal(TRICKY);
    el.shadowRoot!.querySelector<HTMLButtonElement>("[part~=submit-button]")!.click();
    await settle();
    expect(agent.responses()).to.deep.equal([{ type: "extension_ui_response", id: "e1", value: TRICKY }]);
  });

  it("keeps typed tricky text too (end of text, then Enter)", async () => {
    const el = await openEditor("x");
    const events = recordEvents(el);
    area(el).setSelectionRange(1, 1);
    // No "\t": typed, it is the Tab key, which leaves a textarea for a user (and through WebDriver) while Playwright
    // inserts a tab character; tabs in the text are kept exactly by the "Exact text" story and the prefill tests.
    await sendKeys({ type: " 中文😀" });
    await pressCombo("Shift+Enter");
    await pressCombo("Shift+Enter");
    await sendKeys({ press: "Enter" });
    expect(events).to.deep.equal([{ type: "pi-submit", detail: { value: "x 中文😀\n\n" } }]);
  });

  it("grows with its content", async () => {
    const el = await openEditor("one");
    const before = area(el).getBoundingClientRect().height;
    el.value = Array.from({ length: 12 }, (_, i) => `line ${i}`).join("\n");
    await el.updateComplete;
    const after = area(el).getBoundingClientRect().height;
    expect(after).to.be.greaterThan(before * 2);
    expect(area(el).scrollHeight - area(el).clientHeight).to.be.lessThan(2);
  });

  it("grows by measurement where field-sizing is not in effect", async () => {
    const style = document.createElement("style");
    style.textContent = "pi-editor::part(textarea) { field-sizing: fixed; }";
    document.head.append(style);
    try {
      const el = await openEditor("one");
      const before = area(el).getBoundingClientRect().height;
      area(el).focus();
      area(el).setSelectionRange(3, 3);
      for (let i = 0; i < 10; i++) await pressCombo("Shift+Enter");
      await el.updateComplete;
      const after = area(el).getBoundingClientRect().height;
      expect(after).to.be.greaterThan(before * 2);
      expect(area(el).scrollHeight - area(el).clientHeight).to.be.lessThan(2);
    } finally {
      style.remove();
    }
  });

  it("Enter during an IME composition never submits (synthetic: isComposing, and Safari's keyCode 229)", async () => {
    const el = await openEditor();
    const events = recordEvents(el);
    area(el).dispatchEvent(
      new KeyboardEvent("keydown", { key: "Enter", isComposing: true, bubbles: true, composed: true }),
    );
    area(el).dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", keyCode: 229, bubbles: true, composed: true }));
    expect(events).to.deep.equal([]);
  });

  for (const [language, name, committed] of [
    ["ja", "reading-convert-enter", "日本語"],
    ["zh", "pinyin-enter", "zhongwen"],
    ["zh", "pinyin-space", "中文"],
  ] as const) {
    it(`a real IME composition (${language}, ${name}): its keys never submit, the committed text stays, the next Enter submits it`, async () => {
      const el = await openEditor();
      const events = recordEvents(el);
      const ime = await composition(area(el), language, name);
      await ime.play("compose");
      await ime.play("convert");
      await ime.play("enter");
      expect(events).to.deep.equal([]);
      expect(area(el).value).to.equal(committed);
      await sendKeys({ press: "Enter" });
      expect(events).to.deep.equal([{ type: "pi-submit", detail: { value: committed } }]);
    });
  }

  it("Esc cancels; the Cancel button cancels with source button", async () => {
    const el = await openEditor("draft");
    const events = recordEvents(el);
    await sendKeys({ press: "Escape" });
    el.show();
    await el.updateComplete;
    el.shadowRoot!.querySelector<HTMLButtonElement>("[part~=cancel-button]")!.click();
    expect(events).to.deep.equal([
      { type: "pi-cancel", detail: { source: "keyboard" } },
      { type: "pi-cancel", detail: { source: "button" } },
    ]);
  });
});
