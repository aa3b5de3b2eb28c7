/**
 * Slash-command completion in pi-prompt, from pi's `get_commands`: it opens on "/", filters as you type, works by
 * keyboard and mouse, never acts during an IME composition, follows pi's current command set, and is an ARIA
 * combobox that passes axe.
 */
import { expect, fixture, html } from "@open-wc/testing";
import { executeServerCommand, sendKeys, sendMouse } from "@web/test-runner-commands";
import "../src/elements/prompt/define.js";
import { composition } from "../../../test/support/ime.js";
import type { PiPrompt, PromptSendDetail } from "../src/elements/prompt/prompt.js";
import { FakeAgent, settle } from "./session-fake-agent.js";
import { xOf } from "./support/text-geometry.js";

const COMMANDS = [
  { name: "pick", description: "select: choose one of a few options", source: "extension" },
  { name: "pick-long", description: "select: 500 options", source: "extension" },
  { name: "review", description: "Review the staged changes", source: "prompt", argumentHint: "<focus>" },
  { name: "skill:pdf", description: "Read PDF files", source: "skill" },
  { name: "gate", source: "extension" },
];

const field = (el: PiPrompt) => el.shadowRoot!.querySelector("textarea")!;
const list = (el: PiPrompt) => el.shadowRoot!.querySelector<HTMLElement>("[role=listbox]");
const names = (el: PiPrompt) =>
  [...(list(el)?.querySelectorAll("[part~=completion-name]") ?? [])].map((node) => node.textContent);
const activeName = (el: PiPrompt) =>
  list(el)?.querySelector("[aria-selected=true] [part~=completion-name]")?.textContent ?? null;

describe("pi-prompt slash-command completion", () => {
  let agent: FakeAgent;
  let el: PiPrompt;
  let sent: PromptSendDetail[];

  beforeEach(async () => {
    agent = new FakeAgent();
    agent.results.set("get_commands", { commands: COMMANDS });
    el = await fixture<PiPrompt>(html`<pi-prompt .session=${agent.session}></pi-prompt>`);
    sent = [];
    el.addEventListener("pi-send", (event) => sent.push(event.detail));
    field(el).focus();
  });
  afterEach(() => agent.session.close());

  async function type(text: string): Promise<void> {
    await sendKeys({ type: text });
    await settle();
    await el.updateComplete;
  }
  async function press(key: string): Promise<void> {
    await sendKeys({ press: key });
    await settle();
    await el.updateComplete;
  }

  it("in a right-to-left page, a command's name reads /pick, not pick/ (each piece of a row is isolated)", async () => {
    el.dir = "rtl";
    await el.updateComplete;
    field(el).focus();
    await type("/pi");
    const name = list(el)!.querySelector<HTMLElement>("[part~=completion-name]")!;
    expect(name.textContent).to.equal("/pick");
    expect(xOf(name, "/")).to.be.below(xOf(name, "p"));
  });

  it("opens on '/' with pi's commands, descriptions and argument hints, as a combobox with a listbox", async () => {
    expect(list(el)).to.equal(null);
    expect(field(el).hasAttribute("aria-controls")).to.equal(false);
    await type("/");
    expect(agent.commands().filter((c) => c.type === "get_commands")).to.have.length(1);
    expect(names(el)).to.deep.equal(["/pick", "/pick-long", "/review", "/skill:pdf", "/gate"]);
    const box = field(el);
    expect(box.getAttribute("aria-haspopup")).to.equal("listbox");
    expect(box.getAttribute("aria-autocomplete")).to.equal("list");
    expect(box.getAttribute("aria-controls")).to.equal(list(el)!.id);
    expect(box.getAttribute("aria-activedescendant")).to.equal(list(el)!.querySelector("[aria-selected=true]")!.id);
    const review = list(el)!.querySelectorAll("[role=option]")[2]!;
    expect(review.querySelector("[part~=completion-hint]")!.textContent).to.equal("<focus>");
    expect(review.querySelector("[part~=completion-description]")!.textContent).to.equal("Review the staged changes");
    // At the top of the page there is no room above the box: the list opens below it.
    expect(list(el)!.getBoundingClientRect().top).to.be.at.least(box.getBoundingClientRect().bottom);
  });

  it("filters as you type: exact name first, then names starting with the text, then containing it", async () => {
    await type("/pi");
    expect(names(el)).to.deep.equal(["/pick", "/pick-long"]);
    await type("ck-");
    expect(names(el)).to.deep.equal(["/pick-long"]);
    await press("Backspace");
    await press("Backspace");
    await press("Backspace");
    await press("Backspace");
    await type("df");
    expect(names(el)).to.deep.equal(["/skill:pdf"]);
    await type("x");
    expect(list(el)).to.equal(null);
    expect(field(el).hasAttribute("aria-activedescendant")).to.equal(false);
  });

  it("Up/Down move, Tab puts the command in the box; Enter then sends it", async () => {
    await type("/pi");
    expect(activeName(el)).to.equal("/pick");
    await press("ArrowDown");
    expect(activeName(el)).to.equal("/pick-long");
    await press("ArrowDown");
    expect(activeName(el)).to.equal("/pick-long");
    await press("ArrowUp");
    await press("ArrowDown");
    await press("Tab");
    expect(field(el).value).to.equal("/pick-long ");
    expect(list(el)).to.equal(null);
    expect(field(el).selectionStart).to.equal("/pick-long ".length);
    await type("fast");
    await press("Enter");
    expect(sent).to.deep.equal([{ message: "/pick-long fast", command: "prompt" }]);
  });

  it("Enter completes a partly typed command, and sends one typed out in full", async () => {
    await type("/gat");
    await press("Enter");
    expect(field(el).value).to.equal("/gate ");
    expect(sent).to.deep.equal([]);
    field(el).value = "";
    el.value = "";
    // pi answers a command that opens a dialog only once the dialog is answered: the text stays meanwhile.
    agent.silent.add("prompt");
    await type("/pick");
    expect(activeName(el)).to.equal("/pick");
    await press("Enter");
    expect(sent).to.deep.equal([{ message: "/pick", command: "prompt" }]);
    // The list closes when the command goes out, so it never covers the dialog that comes back.
    expect(field(el).value).to.equal("/pick");
    expect(list(el)).to.equal(null);
  });

  it("opens above the box when there is room there, as wide as the box", async () => {
    el.style.marginBlockStart = "20rem";
    await type("/");
    const base = el.shadowRoot!.querySelector("[part~=base]")!.getBoundingClientRect();
    const shown = list(el)!.getBoundingClientRect();
    expect(shown.bottom).to.be.at.most(base.top);
    expect(shown.width).to.be.closeTo(base.width, 2);
  });

  it("a click on a command puts it in the box and keeps focus there", async () => {
    await type("/");
    const option = [...list(el)!.querySelectorAll<HTMLElement>("[role=option]")][3]!;
    const box = option.getBoundingClientRect();
    await sendMouse({ type: "click", position: [Math.round(box.x + 10), Math.round(box.y + box.height / 2)] });
    await settle();
    await el.updateComplete;
    expect(field(el).value).to.equal("/skill:pdf ");
    expect(el.shadowRoot!.activeElement).to.equal(field(el));
  });

  it("Escape closes the list without anything else; typing opens it again", async () => {
    agent.send({ type: "agent_start" }); // streaming: Escape would abort, but the open list takes it first
    await settle();
    await type("/re");
    await press("Escape");
    expect(list(el)).to.equal(null);
    expect(field(el).value).to.equal("/re");
    expect(agent.commands().some((c) => c.type === "abort")).to.equal(false);
    await type("v");
    expect(names(el)).to.deep.equal(["/review"]);
  });

  it("closes when the caret leaves the command's word, and offers nothing for text that is not a command", async () => {
    await type("/pick and more");
    expect(list(el)).to.equal(null);
    await press("Home");
    await press("ArrowRight");
    expect(names(el)).to.deep.equal(["/pick", "/pick-long"]);
    field(el).value = "";
    el.value = "";
    await type("hello /pick");
    expect(list(el)).to.equal(null);
  });

  it("asks pi again each time the list opens, so it shows pi's current commands", async () => {
    await type("/");
    expect(names(el)).to.have.length(5);
    await press("Backspace");
    agent.results.set("get_commands", { commands: [{ name: "new-from-reload", source: "extension" }] });
    await type("/");
    expect(agent.commands().filter((c) => c.type === "get_commands")).to.have.length(2);
    expect(names(el)).to.deep.equal(["/new-from-reload"]);
  });

  it("stays closed while composition events say an IME composes, and opens when the composition ends", async () => {
    // The order every engine fires: compositionstart, input events while composing, compositionend.
    const box = field(el);
    box.dispatchEvent(new CompositionEvent("compositionstart", { bubbles: true, composed: true, data: "" }));
    for (const step of ["/", "/p", "/pi"]) {
      box.value = step;
      box.dispatchEvent(new InputEvent("input", { bubbles: true, composed: true, isComposing: true, data: step }));
      await settle();
      await el.updateComplete;
      expect(list(el)).to.equal(null);
    }
    box.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", isComposing: true, bubbles: true, composed: true }));
    box.dispatchEvent(new CompositionEvent("compositionend", { bubbles: true, composed: true, data: "/pi" }));
    await settle();
    await el.updateComplete;
    expect(sent).to.deep.equal([]);
    expect(names(el)).to.deep.equal(["/pick", "/pick-long"]);
  });

  for (const [language, name] of [
    // ・ ・p ・ぴ, F10 turns it into /pi, Enter commits.
    ["ja", "slash-reading-latin-enter"],
    // "/" goes in directly (the list opens), then p-i compose 平 批, Enter commits the letters: /pi.
    ["zh", "slash-pinyin-enter"],
  ] as const) {
    it(`never opens, moves or accepts during a real IME composition (${language}, ${name})`, async () => {
      const ime = await composition(field(el), language, name);
      let composed = 0;
      const closedWhileComposing = async (preedit: string | undefined) => {
        await settle();
        await el.updateComplete;
        if (preedit === undefined) return;
        composed++;
        expect(list(el), `list while composing ${preedit}`).to.equal(null);
      };
      await ime.play("compose", closedWhileComposing);
      await ime.play("convert", closedWhileComposing);
      expect(composed).to.be.greaterThan(1);
      await ime.play("enter");
      await settle();
      await el.updateComplete;
      expect(sent).to.deep.equal([]);
      expect(field(el).value).to.equal("/pi");
      expect(names(el)).to.deep.equal(["/pick", "/pick-long"]);
      expect(activeName(el)).to.equal("/pick");
      await press("Enter");
      expect(field(el).value).to.equal("/pick ");
      expect(sent).to.deep.equal([]);
    });
  }

  it("works without completion when pi does not answer get_commands", async () => {
    agent.failing.add("get_commands");
    await type("/pick");
    expect(list(el)).to.equal(null);
    await press("Enter");
    expect(sent).to.deep.equal([{ message: "/pick", command: "prompt" }]);
  });

  it("shows the commands given in the `commands` property instead of asking the session", async () => {
    const standalone = await fixture<PiPrompt>(
      html`<pi-prompt .commands=${[{ name: "local", description: "given by the page", source: "extension" }]}></pi-prompt>`,
    );
    field(standalone).focus();
    await sendKeys({ type: "/" });
    await standalone.updateComplete;
    expect(names(standalone)).to.deep.equal(["/local"]);
  });

  it("shows names, hints and descriptions as text, never markup", async () => {
    agent.results.set("get_commands", {
      commands: [{ name: "x<img src=x onerror=alert(1)>", description: "<b>bold</b>", source: "extension" }],
    });
    await type("/");
    expect(list(el)!.querySelector("img, b")).to.equal(null);
    expect(names(el)).to.deep.equal(["/x<img src=x onerror=alert(1)>"]);
  });

  it("shows a long list eight at a time, the window following Up/Down, with its place in the whole; axe passes", async () => {
    agent.results.set("get_commands", {
      commands: Array.from({ length: 40 }, (_, i) => ({
        name: `cmd-${i}`,
        description: `command ${i}`,
        source: "extension",
      })),
    });
    await type("/");
    const completions = list(el)!;
    const options = () => [...completions.querySelectorAll<HTMLElement>("[role=option]")];
    const count = () => completions.querySelector('[part~="completion-count"]')?.textContent;
    expect(options().map((o) => o.getAttribute("aria-posinset"))).to.deep.equal([
      "1",
      "2",
      "3",
      "4",
      "5",
      "6",
      "7",
      "8",
    ]);
    expect(options()[0]!.getAttribute("aria-setsize")).to.equal("40");
    expect(count()).to.equal("1 of 40");
    // No scrolling region a keyboard cannot reach (axe: scrollable-region-focusable).
    expect(completions.scrollHeight).to.be.at.most(completions.clientHeight + 1);
    for (let i = 0; i < 10; i++) await press("ArrowDown");
    const active = completions.querySelector<HTMLElement>('[aria-selected="true"]')!;
    expect(active.textContent).to.contain("/cmd-10");
    expect(field(el).getAttribute("aria-activedescendant")).to.equal(active.id);
    expect(count()).to.equal("11 of 40");
    expect(options().length).to.equal(8);
    await expect(el).to.be.accessible();
    await press("Enter");
    expect(field(el).value).to.equal("/cmd-10 ");
  });

  for (const theme of ["light", "dark"] as const) {
    it(`passes axe with the list open in the ${theme} theme`, async () => {
      el.setAttribute("theme", theme);
      await type("/p");
      await press("ArrowDown");
      await expect(el).to.be.accessible();
      await executeServerCommand("screenshot", { name: `pi-prompt-completion-${theme}`, selector: "pi-prompt" });
    });
  }
});
