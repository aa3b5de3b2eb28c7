/**

 * Dialog texts as extensions write them: `theme.fg(...)` colours (ANSI SGR), OSC 8 links and line breaks in titles,
 * messages and options. They render as styled text, never as raw escape codes or markup, and an answer is still the
 * option exactly as pi sent it.
 */
import { expect, fixture, html } from "@open-wc/testing";
import { sendKeys } from "@web/test-runner-commands";
import "../src/elements/confirm/define.js";
import "../src/elements/extension-ui/define.js";
import "../src/elements/input/define.js";
import "../src/elements/select/define.js";
import type { PiConfirm } from "../src/elements/confirm/confirm.js";
import type { PiExtensionUi } from "../src/elements/extension-ui/extension-ui.js";
import type { PiInput } from "../src/elements/input/input.js";
import type { PiSelect } from "../src/elements/select/select.js";
import { FakeAgent, settle } from "./session-fake-agent.js";
import { recordEvents, withoutArming } from "./support/dialogs.js";
import { FakeClock } from "./support/fake-clock.js";

withoutArming();

const ESC = "\u001b";
/** pi 0.73.1's accent (24-bit) and warning (256-colour, as 1.6.0 sends) around a text. */
const accent = (text: string) => `${ESC}[38;2;138;190;183m${text}${ESC}[39m`;
const warning = (text: string) => `${ESC}[38;5;226m${text}${ESC}[39m`;
const bold = (text: string) => `${ESC}[1m${text}${ESC}[22m`;

/** Every text node under `root`, across this one shadow root. */
function allText(root: ShadowRoot): string {
  return root.textContent ?? "";
}

function styledSpans(root: ParentNode): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>("span[class~=ansi-fg], span[class~=ansi-bold], span[style]")];
}

describe("ANSI and line breaks in dialog texts", () => {
  it("a select's title keeps its line breaks and indentation, and shows its colours, not escape codes", async () => {
    // permission-gate's title: "⚠️ Dangerous command:\n\n  rm -rf …\n\nAllow?", coloured as extensions do.
    const title = `${warning("⚠️ Dangerous command:")}\n\n  ${bold("rm -rf build")}\n\nAllow?`;
    const el = await fixture<PiSelect>(html`<pi-select .heading=${title} .options=${["Yes", "No"]}></pi-select>`);
    el.clock = new FakeClock();
    el.show();
    await el.updateComplete;
    const root = el.shadowRoot!;
    const heading = root.querySelector<HTMLElement>(".heading-text")!;
    expect(heading.textContent).to.equal("⚠️ Dangerous command:\n\n  rm -rf build\n\nAllow?");
    expect(allText(root)).not.to.include(ESC);
    expect(allText(root)).not.to.include("[38;");
    // Five lines tall (two of them empty), not squashed onto one.
    const lineHeight = Number.parseFloat(getComputedStyle(heading).lineHeight) || heading.getClientRects()[0]!.height;
    expect(heading.getBoundingClientRect().height).to.be.greaterThan(lineHeight * 4.5);
    const spans = styledSpans(heading);
    expect(spans.map((span) => span.textContent)).to.deep.equal(["⚠️ Dangerous command:", "rm -rf build"]);
    expect(getComputedStyle(spans[1]!).fontWeight).to.equal("700");
    // The accessible name is the text, without escape codes.
    const labelledBy = root.querySelector("dialog")!.getAttribute("aria-labelledby")!;
    expect(root.getElementById(labelledBy)!.textContent).to.equal(heading.textContent);
  });

  it("a select's options show their colours on one line each; the answer is the option exactly as sent", async () => {
    const options = [accent("Allow"), `${warning("Block")}\nfor this session`, "Plain"];
    const el = await fixture<PiSelect>(html`<pi-select heading="Choose" .options=${options}></pi-select>`);
    el.clock = new FakeClock();
    const events = recordEvents(el);
    el.show();
    await el.updateComplete;
    const rows = [...el.shadowRoot!.querySelectorAll<HTMLElement>("[role=option]")];
    expect(rows.map((row) => row.textContent)).to.deep.equal(["Allow", "Block for this session", "Plain"]);
    expect(styledSpans(rows[0]!)).to.have.length(1);
    const coloured = styledSpans(rows[0]!)[0]!;
    expect(getComputedStyle(coloured).color).not.to.equal(getComputedStyle(rows[2]!).color);
    // One line each: the row with the line break is as tall as a plain one.
    expect(rows[1]!.getBoundingClientRect().height).to.equal(rows[2]!.getBoundingClientRect().height);
    await sendKeys({ press: "ArrowDown" });
    await sendKeys({ press: "Enter" });
    expect(events).to.deep.equal([{ type: "pi-submit", detail: { value: options[1] } }]);
  });

  it("type-ahead and the filter match an option's text, not its escape codes", async () => {
    const options = [accent("alpha"), accent("beta"), accent("gamma")];
    const el = await fixture<PiSelect>(html`<pi-select heading="Choose" .options=${options}></pi-select>`);
    el.clock = new FakeClock();
    el.show();
    await el.updateComplete;
    // "3" occurs in every option's escape codes ("38;2;…"), "g" only in gamma's text.
    await sendKeys({ press: "g" });
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector("[aria-selected=true]")!.textContent).to.equal("gamma");

    const many = Array.from({ length: 12 }, (_, i) => accent(`item ${i}`));
    const long = await fixture<PiSelect>(html`<pi-select heading="Choose" .options=${many}></pi-select>`);
    long.clock = new FakeClock();
    long.show();
    await long.updateComplete;
    await sendKeys({ type: "38" });
    await long.updateComplete;
    expect(long.shadowRoot!.querySelectorAll("[role=option]")).to.have.length(0);
  });

  it("a confirm's message shows colours and keeps line breaks", async () => {
    const message = `${accent("3 files")} will be deleted:\n  a.txt\n  b.txt`;
    const el = await fixture<PiConfirm>(html`<pi-confirm heading="Delete?" .message=${message}></pi-confirm>`);
    el.clock = new FakeClock();
    el.show();
    await el.updateComplete;
    const shown = el.shadowRoot!.querySelector<HTMLElement>("[part~=message]")!;
    expect(shown.textContent).to.equal("3 files will be deleted:\n  a.txt\n  b.txt");
    expect(styledSpans(shown).map((span) => span.textContent)).to.deep.equal(["3 files"]);
    expect(getComputedStyle(shown).whiteSpace).to.equal("pre-wrap");
  });

  it("an input's placeholder is its text without escape codes (a placeholder cannot be styled)", async () => {
    const el = await fixture<PiInput>(html`<pi-input heading="Name" .placeholder=${accent("your name")}></pi-input>`);
    el.clock = new FakeClock();
    el.show();
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector("input")!.placeholder).to.equal("your name");
  });

  it("markup in a coloured title stays text", async () => {
    const el = await fixture<PiSelect>(
      html`<pi-select .heading=${accent("<img src=x onerror=alert(1)>")} .options=${["a"]}></pi-select>`,
    );
    el.clock = new FakeClock();
    el.show();
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector("img")).to.equal(null);
    expect(el.shadowRoot!.querySelector(".heading-text")!.textContent).to.equal("<img src=x onerror=alert(1)>");
  });

  it("pi-extension-ui names its dialog by the title's text", async () => {
    const agent = new FakeAgent();
    const host = await fixture<PiExtensionUi>(html`<pi-extension-ui .session=${agent.session}></pi-extension-ui>`);
    agent.request("confirm", { title: bold("Proceed?"), message: "ok" });
    await settle();
    await host.updateComplete;
    const dialog = host.shadowRoot!.querySelector("dialog[part~=dialog]")!;
    expect(dialog.getAttribute("aria-label")).to.equal("Proceed?");
    agent.session.close();
  });
});
