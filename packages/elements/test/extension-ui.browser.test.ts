import { expect, fixture, html } from "@open-wc/testing";
import { executeServerCommand, sendKeys, sendMouse } from "@web/test-runner-commands";
import "../src/elements/extension-ui/define.js";
import "../src/elements/prompt/define.js";
import "../src/elements/session/define.js";
import type { PiExtensionUi } from "../src/elements/extension-ui/extension-ui.js";
import type { PiPrompt } from "../src/elements/prompt/prompt.js";
import { FakeAgent, ManualClock, settle } from "./session-fake-agent.js";
import { withoutArming } from "./support/dialogs.js";
import { xOf } from "./support/text-geometry.js";

withoutArming();

type Mounted = { host: PiExtensionUi; prompt: PiPrompt };

async function mount(agent: FakeAgent, attrs = ""): Promise<Mounted> {
  const wrapper = await fixture<HTMLElement>(html`<div></div>`);
  wrapper.innerHTML = `<pi-extension-ui ${attrs}><pi-prompt></pi-prompt></pi-extension-ui>`;
  const host = wrapper.querySelector("pi-extension-ui")!;
  host.session = agent.session;
  const prompt = wrapper.querySelector("pi-prompt")!;
  prompt.session = agent.session;
  await host.updateComplete;
  return { host, prompt };
}

const shown = (host: PiExtensionUi) => host.shadowRoot!.querySelector<HTMLElement>('[part~="dialog-element"]');
const queueText = (host: PiExtensionUi) =>
  host.shadowRoot!.querySelector('[part~="queue-position"]')?.textContent ?? null;
function deepActive(): Element | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}
const promptField = (prompt: PiPrompt) => prompt.shadowRoot!.querySelector("textarea")!;

describe("pi-extension-ui inline", () => {
  let agent: FakeAgent;
  beforeEach(() => {
    agent = new FakeAgent();
  });
  afterEach(() => agent.session.close());

  it("given another session, shows that session's dialog even when its id repeats one shown before", async () => {
    const { host } = await mount(agent);
    const first = agent.request("select", { title: "Deploy where?", options: ["staging", "production"] });
    await settle();
    expect(shown(host)!.localName).to.equal("pi-select");
    const other = new FakeAgent();
    try {
      const second = other.request("input", { title: "Branch name?" });
      expect(second).to.equal(first);
      host.session = other.session;
      await settle();
      const dialog = shown(host)!;
      expect(dialog.localName).to.equal("pi-input");
      expect(dialog.shadowRoot!.textContent).to.contain("Branch name?");
      expect(dialog.shadowRoot!.textContent).not.to.contain("Deploy where?");
    } finally {
      other.session.close();
    }
  });

  it('in a right-to-left page, the queue position reads in its own direction ("1 of 2", not "of 2 1")', async () => {
    const wrapper = await fixture<HTMLElement>(html`<div dir="rtl"></div>`);
    wrapper.innerHTML = "<pi-extension-ui><pi-prompt></pi-prompt></pi-extension-ui>";
    const host = wrapper.querySelector("pi-extension-ui")!;
    host.session = agent.session;
    agent.request("confirm", { title: "First?", message: "" });
    agent.request("confirm", { title: "Second?", message: "" });
    await settle();
    const position = host.shadowRoot!.querySelector('[part~="queue-position"]')!;
    expect(position.textContent).to.equal("1 of 2");
    const x = (char: string) => xOf(position, char);
    expect(x("1")).to.be.below(x("of"));
    expect(x("of")).to.be.below(x("2"));
  });

  it("shows the slotted prompt while no dialog is pending", async () => {
    const { host, prompt } = await mount(agent);
    expect(shown(host)).to.equal(null);
    expect(prompt.checkVisibility()).to.equal(true);
  });

  it("shows a dialog above the prompt, which stays usable; answers it by keyboard and gives focus back", async () => {
    const { host, prompt } = await mount(agent);
    promptField(prompt).focus();
    const id = agent.request("input", { title: "Branch name?", placeholder: "feature/…" });
    await settle();
    const dialog = shown(host)!;
    expect(dialog.localName).to.equal("pi-input");
    expect(prompt.checkVisibility()).to.equal(true);
    expect(dialog.getBoundingClientRect().bottom).to.be.at.most(prompt.getBoundingClientRect().top);
    expect(dialog.shadowRoot!.contains(deepActive())).to.equal(true);
    await sendKeys({ type: "fix/prompt" });
    await sendKeys({ press: "Enter" });
    await settle();
    expect(agent.responses()).to.deep.equal([{ type: "extension_ui_response", id, value: "fix/prompt" }]);
    expect(shown(host)).to.equal(null);
    expect(prompt.checkVisibility()).to.equal(true);
    expect(deepActive()).to.equal(promptField(prompt));
  });

  for (const gone of ["disabled", "removed", "never focused"] as const) {
    it(`gives focus to the slotted prompt when what had it is ${gone} by the time the dialog is answered`, async () => {
      const { host, prompt } = await mount(agent);
      // A page's suggestion button: it sends a prompt, pi works (the page disables it) and asks a question.
      const suggestion = document.createElement("button");
      suggestion.textContent = "Ask me something";
      host.before(suggestion);
      if (gone !== "never focused") suggestion.focus();
      const id = agent.request("confirm", { title: "Proceed?", message: "" });
      await settle();
      expect(shown(host)!.shadowRoot!.contains(deepActive())).to.equal(true);
      if (gone === "disabled") suggestion.disabled = true;
      if (gone === "removed") suggestion.remove();
      await sendKeys({ press: "Escape" });
      await settle();
      expect(agent.responses()).to.deep.equal([{ type: "extension_ui_response", id, cancelled: true }]);
      expect(shown(host)).to.equal(null);
      expect(deepActive()).to.equal(promptField(prompt));
      suggestion.remove();
    });
  }

  it("gives focus back to the control that had it when it can still take it", async () => {
    const { host } = await mount(agent);
    const other = document.createElement("button");
    other.textContent = "Elsewhere";
    host.before(other);
    other.focus();
    agent.request("confirm", { title: "Proceed?", message: "" });
    await settle();
    await sendKeys({ press: "Escape" });
    await settle();
    expect(deepActive()).to.equal(other);
    other.remove();
  });

  it("works through a queue with a '1 of 3' indicator, by keyboard and mouse", async () => {
    const { host } = await mount(agent);
    const confirm = agent.request("confirm", { title: "Allow rm?", message: "rm -rf build" });
    const input = agent.request("input", { title: "Why?" });
    const select = agent.request("select", { title: "Pick", options: ["alpha", "beta"] });
    await settle();
    expect(queueText(host)).to.equal("1 of 3");
    expect(shown(host)!.localName).to.equal("pi-confirm");
    await sendKeys({ press: "Enter" });
    await settle();
    expect(queueText(host)).to.equal("1 of 2");
    expect(shown(host)!.localName).to.equal("pi-input");
    await sendKeys({ press: "Escape" });
    await settle();
    expect(queueText(host)).to.equal(null);
    const picker = shown(host)!;
    expect(picker.localName).to.equal("pi-select");
    const beta = [...picker.shadowRoot!.querySelectorAll<HTMLElement>("[role=option]")].find(
      (option) => option.textContent?.trim() === "beta",
    )!;
    beta.click();
    await settle();
    expect(agent.responses()).to.deep.equal([
      { type: "extension_ui_response", id: confirm, confirmed: false },
      { type: "extension_ui_response", id: input, cancelled: true },
      { type: "extension_ui_response", id: select, value: "beta" },
    ]);
    expect(shown(host)).to.equal(null);
  });

  it("gives each request its own element: typing survives re-renders, the next dialog of the same method starts fresh", async () => {
    const { host } = await mount(agent);
    const first = agent.request("input", { title: "First?" });
    const second = agent.request("input", { title: "Second?" });
    await settle();
    const firstElement = shown(host)!;
    await sendKeys({ type: "draft" });
    // Store changes that re-render the host (a status, the title) keep the element and what was typed.
    agent.request("setStatus", { statusKey: "k", statusText: "busy" });
    agent.request("setTitle", { title: "pi" });
    await settle();
    expect(shown(host)).to.equal(firstElement);
    expect(firstElement.shadowRoot!.querySelector("input")!.value).to.equal("draft");
    await sendKeys({ press: "Enter" });
    await settle();
    const secondElement = shown(host)!;
    expect(secondElement.localName).to.equal("pi-input");
    expect(secondElement).to.not.equal(firstElement);
    expect(secondElement.shadowRoot!.querySelector("input")!.value).to.equal("");
    expect(secondElement.shadowRoot!.textContent).to.contain("Second?");
    expect(secondElement.shadowRoot!.contains(deepActive())).to.equal(true);
    await sendKeys({ type: "next" });
    await sendKeys({ press: "Enter" });
    await settle();
    expect(agent.responses()).to.deep.equal([
      { type: "extension_ui_response", id: first, value: "draft" },
      { type: "extension_ui_response", id: second, value: "next" },
    ]);
  });

  it("says the queue position in the nearest language", async () => {
    const wrapper = await fixture<HTMLElement>(html`<div lang="ja"><pi-extension-ui></pi-extension-ui></div>`);
    const host = wrapper.querySelector("pi-extension-ui")!;
    host.session = agent.session;
    agent.request("input", { title: "a" });
    agent.request("input", { title: "b" });
    await settle();
    expect(queueText(host)).to.equal("2件中1件目");
  });

  it("shows the dialog with a deadline first, then the oldest; moves on when one expires or is closed remotely", async () => {
    const clock = new ManualClock();
    agent.session.close();
    agent = new FakeAgent({ clock });
    const { host } = await mount(agent);
    const first = agent.request("confirm", { title: "first", message: "" });
    agent.request("confirm", { title: "second", message: "", timeout: 3000 });
    agent.request("input", { title: "third" });
    await settle();
    const second = shown(host)!;
    expect(second.shadowRoot!.textContent).to.contain("second");
    expect(second.shadowRoot!.querySelector('[part~="countdown"]')!.textContent).to.contain("3");
    expect(queueText(host)).to.equal("2 of 3");
    clock.advance(3000);
    await settle();
    expect(shown(host)!.shadowRoot!.textContent).to.contain("first");
    expect(queueText(host)).to.equal("1 of 2");
    agent.send({ type: "pi-elements/dialog_closed", id: first, reason: "answered" });
    await settle();
    expect(shown(host)!.localName).to.equal("pi-input");
    expect(queueText(host)).to.equal(null);
    expect(agent.responses().map((r) => r.id)).to.not.include(first);
  });

  it("renders markup in requests as text", async () => {
    const { host } = await mount(agent);
    const payload = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>`;
    agent.request("confirm", { title: payload, message: payload });
    agent.request("select", { title: payload, options: [payload] });
    await settle();
    const roots = [host.shadowRoot!, shown(host)!.shadowRoot!];
    for (const root of roots) expect(root.querySelectorAll("img, script")).to.have.length(0);
    expect(shown(host)!.shadowRoot!.textContent).to.contain(payload);
    expect((window as { __pwned?: number }).__pwned).to.equal(undefined);
  });

  it("is inline without modal: a non-modal dialog in the flow, named once by the request's title", async () => {
    const { host, prompt } = await mount(agent);
    agent.request("confirm", { title: "Run \u001b[1mls\u001b[0m?", message: "in /tmp" });
    await settle();
    const box = host.shadowRoot!.querySelector("dialog")!;
    expect(box.open).to.equal(true);
    expect(box.matches(":modal")).to.equal(false);
    expect(shown(host)!.localName).to.equal("pi-confirm");
    expect(prompt.checkVisibility()).to.equal(true);
    // One dialog, one name: no dialog, group or second name inside the shown element.
    expect(box.getAttribute("role")).to.equal("alertdialog");
    expect(box.getAttribute("aria-label")).to.equal("Run ls?");
    expect(box.getAttribute("aria-description")).to.equal("in /tmp");
    const inner = shown(host)!.shadowRoot!;
    expect(inner.querySelector("dialog, [role=dialog], [role=alertdialog], [role=group]")).to.equal(null);
    expect(host.shadowRoot!.querySelectorAll("[role=group], [aria-label]")).to.have.length(1);
    // Its text is on the page once: no hidden copy of the title or message.
    expect(host.shadowRoot!.textContent).not.to.contain("in /tmp");
  });

  it("shows each method with the element registered for it in dialogTags", async () => {
    const Input = customElements.get("pi-input")!;
    if (!customElements.get("my-input")) customElements.define("my-input", class extends Input {});
    const { host } = await mount(agent);
    host.dialogTags = { ...host.dialogTags, input: "my-input" };
    const id = agent.request("input", { title: "Name?" });
    await settle();
    expect(shown(host)!.localName).to.equal("my-input");
    await sendKeys({ type: "x" });
    await sendKeys({ press: "Enter" });
    await settle();
    expect(agent.responses()).to.deep.equal([{ type: "extension_ui_response", id, value: "x" }]);
  });

  it("finds its session through an ancestor pi-session", async () => {
    const wrapper = await fixture<HTMLElement>(html`<pi-session .session=${agent.session}
      ><pi-extension-ui><pi-prompt></pi-prompt></pi-extension-ui
    ></pi-session>`);
    const host = wrapper.querySelector("pi-extension-ui")!;
    agent.request("input", { title: "context" });
    await settle();
    expect(shown(host)!.localName).to.equal("pi-input");
    await sendKeys({ press: "Enter" });
    await settle();
    expect(agent.responses()).to.have.length(1);
  });

  it("shows nothing but its slot without a session", async () => {
    const el = await fixture<PiExtensionUi>(html`<pi-extension-ui><p>idle</p></pi-extension-ui>`);
    expect(shown(el)).to.equal(null);
    expect(el.querySelector("p")!.checkVisibility()).to.equal(true);
  });

  for (const theme of ["light", "dark"] as const) {
    it(`passes axe with a queue open in the ${theme} theme`, async () => {
      const { host } = await mount(agent, `theme="${theme}"`);
      await expect(host).to.be.accessible();
      agent.request("select", { title: "Model", options: ["sonnet", "opus", "haiku"], timeout: 10000 });
      agent.request("confirm", { title: "Sure?", message: "yes" });
      await settle();
      expect(getComputedStyle(shown(host)!).colorScheme).to.equal(theme);
      await expect(host).to.be.accessible();
      await executeServerCommand("screenshot", {
        name: `pi-extension-ui-inline-${theme}`,
        selector: "pi-extension-ui",
      });
    });
  }
});

describe("pi-extension-ui modal", () => {
  let agent: FakeAgent;
  const pageTitle = document.title;
  beforeEach(() => {
    agent = new FakeAgent();
  });
  afterEach(() => {
    agent.session.close();
    document.title = pageTitle;
  });

  it("opens a native modal dialog in the top layer and closes it when the queue empties", async () => {
    const { host, prompt } = await mount(agent, "modal");
    promptField(prompt).focus();
    agent.request("confirm", { title: "Deploy?", message: "to production" });
    await settle();
    const box = host.shadowRoot!.querySelector("dialog")!;
    expect(box.open).to.equal(true);
    expect(box.matches(":modal")).to.equal(true);
    expect(prompt.checkVisibility()).to.equal(true);
    expect(shown(host)!.shadowRoot!.contains(deepActive())).to.equal(true);
    const no = shown(host)!.shadowRoot!.querySelector<HTMLElement>('[part~="no-button"]')!;
    no.click();
    await settle();
    expect(box.open).to.equal(false);
    expect(agent.responses()[0]).to.include({ confirmed: false });
    expect(deepActive()).to.equal(promptField(prompt));
  });

  it("cancels with source keyboard on Escape", async () => {
    const { host } = await mount(agent, "modal");
    const sources: string[] = [];
    host.addEventListener("pi-cancel", (e) => sources.push(e.detail.source));
    const id = agent.request("input", { title: "Name?" });
    await settle();
    await sendKeys({ press: "Escape" });
    await settle();
    expect(sources).to.deep.equal(["keyboard"]);
    expect(agent.responses()).to.deep.equal([{ type: "extension_ui_response", id, cancelled: true }]);
    expect(host.shadowRoot!.querySelector("dialog")!.open).to.equal(false);
  });

  it("cancels with source backdrop on a click outside the box", async () => {
    const { host } = await mount(agent, "modal");
    const sources: string[] = [];
    host.addEventListener("pi-cancel", (e) => sources.push(e.detail.source));
    const id = agent.request("select", { title: "Pick", options: ["a", "b"] });
    await settle();
    await sendMouse({ type: "click", position: [2, 2] });
    await settle();
    expect(sources).to.deep.equal(["backdrop"]);
    expect(agent.responses()).to.deep.equal([{ type: "extension_ui_response", id, cancelled: true }]);
  });

  it("draws one box: the modal's frame; no dialog element inside has a <dialog> or a frame of its own", async () => {
    const { host } = await mount(agent, "modal");
    agent.request("select", { title: "s", options: ["a"] });
    agent.request("confirm", { title: "c", message: "" });
    agent.request("input", { title: "i" });
    agent.request("editor", { title: "e" });
    const outer = getComputedStyle(host.shadowRoot!.querySelector("dialog")!);
    for (const method of ["select", "confirm", "input", "editor"]) {
      await settle();
      const element = shown(host)!;
      expect(element.localName).to.equal(`pi-${method}`);
      expect(outer.borderTopWidth).to.equal("1px");
      expect(element.shadowRoot!.querySelector("dialog"), method).to.equal(null);
      const inner = getComputedStyle(element.shadowRoot!.querySelector("[part~=content]")!);
      expect([inner.borderTopWidth, inner.borderInlineStartWidth, inner.paddingTop], method).to.deep.equal([
        "0px",
        "0px",
        "0px",
      ]);
      expect(inner.backgroundColor, method).to.equal("rgba(0, 0, 0, 0)");
      (element as HTMLElement & { cancel(): boolean }).cancel();
    }
  });

  it("stays open across the queue and shows the position", async () => {
    const { host } = await mount(agent, "modal");
    agent.request("input", { title: "one" });
    agent.request("input", { title: "two" });
    await settle();
    expect(queueText(host)).to.equal("1 of 2");
    await sendKeys({ press: "Enter" });
    await settle();
    expect(host.shadowRoot!.querySelector("dialog")!.open).to.equal(true);
    expect(shown(host)!.shadowRoot!.textContent).to.contain("two");
    expect(queueText(host)).to.equal(null);
  });

  it("mirrors the session title into document.title with sync-title, and restores the page's", async () => {
    const { host } = await mount(agent, "sync-title");
    document.title = "my page";
    agent.request("setTitle", { title: "pi — refactor" });
    await settle();
    expect(document.title).to.equal("pi — refactor");
    agent.request("setTitle", { title: "<b>pi</b>" });
    await settle();
    expect(document.title).to.equal("<b>pi</b>");
    host.removeAttribute("sync-title");
    await settle();
    expect(document.title).to.equal("my page");
    agent.request("setTitle", { title: "ignored" });
    await settle();
    expect(document.title).to.equal("my page");
  });

  it("leaves document.title alone without sync-title", async () => {
    await mount(agent);
    document.title = "untouched";
    agent.request("setTitle", { title: "pi" });
    await settle();
    expect(document.title).to.equal("untouched");
  });

  for (const theme of ["light", "dark"] as const) {
    it(`passes axe with the modal open in the ${theme} theme`, async () => {
      const { host } = await mount(agent, `modal theme="${theme}"`);
      agent.request("editor", { title: "Commit message", prefill: "fix: prompt\n\nbody" });
      agent.request("input", { title: "next" });
      await settle();
      // The host's theme reaches the dialog element inside it and the slotted prompt.
      expect(getComputedStyle(shown(host)!).colorScheme).to.equal(theme);
      expect(getComputedStyle(host.querySelector("pi-prompt")!).colorScheme).to.equal(theme);
      await expect(host).to.be.accessible();
      await executeServerCommand("screenshot", { name: `pi-extension-ui-modal-${theme}` });
    });
  }
});
