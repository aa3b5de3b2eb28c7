import { expect, fixture, html, nextFrame } from "@open-wc/testing";
import { sendKeys, sendMouse } from "@web/test-runner-commands";
import { keyDown, keyUp } from "../../../test/support/engine.js";
import "../src/elements/confirm/define.js";
import "../src/elements/extension-ui/define.js";
import "../src/elements/prompt/define.js";
import type { PiConfirm } from "../src/elements/confirm/confirm.js";
import { settle, TestAgent } from "./support/agent.js";
import { type AnyDialog, deepActive, recordEvents, withoutArming } from "./support/dialogs.js";
import { FakeClock } from "./support/fake-clock.js";

withoutArming();

async function openConfirm(message = "Line one\nLine two\n\n  indented"): Promise<PiConfirm> {
  const el = await fixture<PiConfirm>(html`<pi-confirm heading="Delete?" .message=${message}></pi-confirm>`);
  el.show();
  await el.updateComplete;
  return el;
}

function button(el: PiConfirm, part: "yes-button" | "no-button"): HTMLButtonElement {
  return el.shadowRoot!.querySelector(`[part~=${part}]`)!;
}

describe("pi-confirm", () => {
  it("is an alertdialog named by the title and described by the message, line breaks kept", async () => {
    const el = await openConfirm();
    const box = el.shadowRoot!.querySelector("dialog")!;
    expect(box.getAttribute("role")).to.equal("alertdialog");
    const message = el.shadowRoot!.querySelector<HTMLElement>("[part~=message]")!;
    expect(box.getAttribute("aria-describedby")).to.equal("message");
    expect(message.textContent).to.equal("Line one\nLine two\n\n  indented");
    expect(getComputedStyle(message).whiteSpace).to.equal("pre-wrap");
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered line breaks are what is checked here.
    expect(message.innerText.split("\n").length).to.equal(4);
  });

  it("No, the least destructive choice, has focus when it opens; Enter answers No", async () => {
    const el = await openConfirm();
    const events = recordEvents(el);
    expect(deepActive()).to.equal(button(el, "no-button"));
    await sendKeys({ press: "Enter" });
    expect(events).to.deep.equal([{ type: "pi-submit", detail: { confirmed: false } }]);
  });

  it("arrow keys move between No and Yes; Enter on Yes answers true", async () => {
    const el = await openConfirm();
    const events = recordEvents(el);
    await sendKeys({ press: "ArrowDown" });
    expect(deepActive()).to.equal(button(el, "yes-button"));
    await sendKeys({ press: "ArrowUp" });
    expect(deepActive()).to.equal(button(el, "no-button"));
    await sendKeys({ press: "ArrowRight" });
    await sendKeys({ press: "Enter" });
    expect(events).to.deep.equal([{ type: "pi-submit", detail: { confirmed: true } }]);
  });

  it("clicking No answers false, clicking Yes answers true", async () => {
    const el = await openConfirm();
    const events = recordEvents(el);
    const click = async (target: Element) => {
      const box = target.getBoundingClientRect();
      await sendMouse({
        type: "click",
        position: [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)],
      });
    };
    await click(button(el, "no-button"));
    el.show();
    await el.updateComplete;
    await click(button(el, "yes-button"));
    expect(events).to.deep.equal([
      { type: "pi-submit", detail: { confirmed: false } },
      { type: "pi-submit", detail: { confirmed: true } },
    ]);
  });

  it("submit(false) answers No; the deprecated confirm(false) still does", async () => {
    const el = await openConfirm();
    const events = recordEvents(el);
    expect(el.submit(false)).to.equal(true);
    const old = await openConfirm();
    const oldEvents = recordEvents(old);
    expect(old.confirm(false)).to.equal(true);
    expect(events).to.deep.equal([{ type: "pi-submit", detail: { confirmed: false } }]);
    expect(oldEvents).to.deep.equal([{ type: "pi-submit", detail: { confirmed: false } }]);
  });

  it("session-driven: Esc answers {cancelled: true}; No answers {confirmed: false}, on the wire", async () => {
    const clock = new FakeClock();
    const agent = new TestAgent(clock);
    const el = await fixture<PiConfirm>(html`<pi-confirm></pi-confirm>`);
    const dialog = el as unknown as AnyDialog;
    await agent.ask(dialog, {
      type: "extension_ui_request",
      id: "c1",
      method: "confirm",
      title: "Allow?",
      message: "bash: ls",
    });
    await sendKeys({ press: "Escape" });
    await agent.ask(dialog, {
      type: "extension_ui_request",
      id: "c2",
      method: "confirm",
      title: "Allow?",
      message: "bash: rm",
    });
    button(el, "no-button").click();
    await settle();
    expect(agent.responses()).to.deep.equal([
      { type: "extension_ui_response", id: "c1", cancelled: true },
      { type: "extension_ui_response", id: "c2", confirmed: false },
    ]);
  });

  it("a permission gate that appears while the prompt's Enter is still down is not confirmed by it", async () => {
    const clock = new FakeClock();
    const agent = new TestAgent(clock);
    const host = await fixture<HTMLElement>(
      html`<pi-extension-ui .session=${agent.session} .clock=${clock}><pi-prompt .session=${agent.session}></pi-prompt></pi-extension-ui>`,
    );
    const prompt = host.querySelector("pi-prompt")!;
    await prompt.updateComplete;
    prompt.shadowRoot!.querySelector("textarea")!.focus();
    await sendKeys({ type: "delete the build" });
    await keyDown("Enter"); // sends the prompt...
    agent.sendRaw({
      type: "extension_ui_request",
      id: "gate",
      method: "confirm",
      title: "Allow bash?",
      message: "rm -rf build",
    });
    await settle(); // ...and the agent's permission gate arrives while Enter is still held
    const gate = host.shadowRoot!.querySelector("pi-confirm")!;
    await gate.updateComplete;
    expect(deepActive()).to.equal(button(gate, "no-button"));
    await keyDown("Enter"); // auto-repeat
    await keyUp("Enter");
    await settle();
    expect(agent.responses()).to.deep.equal([]);
    expect(agent.received.some((record) => record.type === "prompt")).to.equal(true);
    await sendKeys({ press: "ArrowLeft" });
    await sendKeys({ press: "Enter" }); // a deliberate press answers
    await settle();
    expect(agent.responses()).to.deep.equal([{ type: "extension_ui_response", id: "gate", confirmed: true }]);
  });

  it("PiConfirm.ask() resolves true / false", async () => {
    const PiConfirmClass = customElements.get("pi-confirm") as unknown as typeof PiConfirm;
    const yes = PiConfirmClass.ask({ heading: "Proceed?", message: "m" });
    await nextFrame();
    await sendKeys({ press: "ArrowRight" });
    await sendKeys({ press: "Enter" });
    expect(await yes).to.equal(true);
    const no = PiConfirmClass.ask({ heading: "Proceed?", message: "m" });
    await nextFrame();
    await sendKeys({ press: "Enter" });
    expect(await no).to.equal(false);
  });

  it("Yes / No are localized", async () => {
    const wrapper = await fixture<HTMLDivElement>(
      html`<div lang="ja"><pi-confirm heading="削除しますか？" message="元に戻せません"></pi-confirm></div>`,
    );
    const el = wrapper.querySelector("pi-confirm")!;
    el.show();
    await el.updateComplete;
    expect([button(el, "yes-button").textContent, button(el, "no-button").textContent]).to.deep.equal([
      "はい",
      "いいえ",
    ]);
    wrapper.lang = "zh-CN";
    el.requestUpdate();
    await el.updateComplete;
    expect([button(el, "yes-button").textContent, button(el, "no-button").textContent]).to.deep.equal(["是", "否"]);
    el.strings = { yes: "Allow", no: "Deny" };
    await el.updateComplete;
    expect([button(el, "yes-button").textContent, button(el, "no-button").textContent]).to.deep.equal([
      "Allow",
      "Deny",
    ]);
  });

  it("in a right-to-left page an English message keeps its own direction (the full stop stays at its end)", async () => {
    const wrapper = await fixture<HTMLDivElement>(
      html`<div dir="rtl" lang="ar"><pi-confirm heading="Sure?" message="Done."></pi-confirm></div>`,
    );
    const el = wrapper.querySelector("pi-confirm")!;
    el.show();
    await el.updateComplete;
    const message = el.shadowRoot!.querySelector("[part~=message]")!;
    const text = [...message.childNodes].find(
      (node) => node.nodeType === Node.TEXT_NODE && node.textContent === "Done.",
    )!;
    const charLeft = (offset: number) => {
      const range = document.createRange();
      range.setStart(text, offset);
      range.setEnd(text, offset + 1);
      return range.getBoundingClientRect().left;
    };
    expect(charLeft(4), "'.' is right of 'D'").to.be.greaterThan(charLeft(0));
  });

  it("in a right-to-left page the message lines up with the heading at the right, whatever the text's direction", async () => {
    const wrapper = await fixture<HTMLDivElement>(
      html`<div dir="rtl" lang="ar" style="inline-size: 30em"><pi-confirm heading="Sure?" message="Done."></pi-confirm></div>`,
    );
    const el = wrapper.querySelector("pi-confirm")!;
    el.show();
    await el.updateComplete;
    const textBox = (part: string) => {
      const node = el.shadowRoot!.querySelector(`[part~=${part}]`)!;
      const range = document.createRange();
      range.selectNodeContents(node);
      return { text: range.getBoundingClientRect(), box: node.getBoundingClientRect() };
    };
    const heading = textBox("heading");
    const message = textBox("message");
    expect(Math.abs(message.text.right - message.box.right), "message text at its box's right edge").to.be.lessThan(2);
    expect(
      Math.abs(message.text.right - heading.text.right),
      "message and heading end at the same edge",
    ).to.be.lessThan(2);
  });

  it("an empty message renders no message paragraph and stays accessible", async () => {
    const el = await openConfirm("");
    expect(el.shadowRoot!.querySelector("[part~=message]")).to.equal(null);
    expect(el.shadowRoot!.querySelector("dialog")!.hasAttribute("aria-describedby")).to.equal(false);
    await expect(el).to.be.accessible();
  });

  it("modal: top layer via showModal, backdrop click cancels with source backdrop", async () => {
    const el = await fixture<PiConfirm>(html`<pi-confirm modal heading="Modal?" message="m"></pi-confirm>`);
    const events = recordEvents(el);
    el.show();
    await el.updateComplete;
    const box = el.shadowRoot!.querySelector("dialog")!;
    expect(box.matches(":modal")).to.equal(true);
    await expect(el).to.be.accessible();
    await sendMouse({ type: "click", position: [3, 3] });
    expect(events).to.deep.equal([{ type: "pi-cancel", detail: { source: "backdrop" } }]);
    el.show();
    await el.updateComplete;
    await sendKeys({ press: "Escape" });
    expect(events[1]).to.deep.equal({ type: "pi-cancel", detail: { source: "keyboard" } });
    await el.updateComplete;
    expect(box.open).to.equal(false);
  });
});
