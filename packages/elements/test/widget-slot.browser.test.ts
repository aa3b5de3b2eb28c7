import { ContextProvider } from "@lit/context";
import { expect, fixture, html, oneEvent } from "@open-wc/testing";
import { executeServerCommand, sendKeys } from "@web/test-runner-commands";
import { emulate, engine } from "../../../test/support/engine.js";
import { sessionContext } from "../src/context.js";
import "../src/elements/widget-slot/define.js";
import type { PiWidgetSlot } from "../src/elements/widget-slot/widget-slot.js";
import { FakeAgent, settle } from "./session-fake-agent.js";

const E = "\u001b";

function setWidget(
  agent: FakeAgent,
  key: string,
  lines: string[] | undefined,
  placement?: "aboveEditor" | "belowEditor",
) {
  agent.request("setWidget", {
    widgetKey: key,
    ...(lines ? { widgetLines: lines } : {}),
    ...(placement ? { widgetPlacement: placement } : {}),
  });
}

const root = (el: PiWidgetSlot) => el.shadowRoot!;
const widgets = (el: PiWidgetSlot) => [...root(el).querySelectorAll<HTMLElement>('[part~="widget"]')];
const lineTexts = (widget: HTMLElement) => [...widget.querySelectorAll('[part~="line"]')].map((l) => l.textContent);
const toggle = (widget: HTMLElement) => widget.querySelector<HTMLButtonElement>('[part~="toggle"]');
const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`);

describe("pi-widget-slot", () => {
  it("shows standalone widgets in order, keyed by data-key, with no visible key", async () => {
    const el = await fixture<PiWidgetSlot>(html`<pi-widget-slot
      .widgets=${[{ key: "progress", lines: ["Building…", "3 of 5"] }, { key: "todo", lines: ["- [ ] tests"] }]}
    ></pi-widget-slot>`);
    expect(widgets(el).map((w) => w.dataset.key)).to.deep.equal(["progress", "todo"]);
    expect(lineTexts(widgets(el)[0]!)).to.deep.equal(["Building…", "3 of 5"]);
    expect(root(el).textContent).not.to.include("progress");
    expect(toggle(widgets(el)[0]!)).to.equal(null);
    const base = root(el).querySelector('[part~="base"]');
    expect(base?.getAttribute("role")).to.equal("group");
    expect(base?.getAttribute("aria-label")).to.equal("Extension widgets");
    await expect(el).to.be.accessible();
  });

  it("gives bad standalone input a defined outcome: a repeated key shows once where last given, junk is skipped", async () => {
    const el = await fixture<PiWidgetSlot>(html`<pi-widget-slot
      .widgets=${[{ key: "a", lines: ["old"] }, { key: "b", lines: "not an array" }, null, { key: "a", lines: ["new", 5] }]}
    ></pi-widget-slot>`);
    expect(widgets(el).map((w) => w.dataset.key)).to.deep.equal(["b", "a"]);
    expect(lineTexts(widgets(el)[0]!)).to.deep.equal([]);
    expect(lineTexts(widgets(el)[1]!)).to.deep.equal(["new", "5"]);
    el.widgets = undefined as unknown as [];
    await el.updateComplete;
    expect(widgets(el)).to.have.length(0);
  });

  it("renders nothing while there are no widgets", async () => {
    const el = await fixture<PiWidgetSlot>(html`<pi-widget-slot></pi-widget-slot>`);
    expect(root(el).querySelector('[part~="base"]')).to.equal(null);
    expect(el.getBoundingClientRect().height).to.equal(0);
    await expect(el).to.be.accessible();
  });

  it("shows 10 lines, then a truncated row that unfolds the rest and folds it again, by click and keyboard", async () => {
    const el = await fixture<PiWidgetSlot>(
      html`<pi-widget-slot .widgets=${[{ key: "log", lines: lines(25) }]}></pi-widget-slot>`,
    );
    const [widget] = widgets(el);
    expect(lineTexts(widget!)).to.deep.equal(lines(10));
    const button = toggle(widget!)!;
    expect(widget!.querySelector('[part~="truncated"]')?.textContent).to.equal("… (widget truncated)");
    expect(button.textContent?.trim(), "the button names what it does").to.equal("Show all 25 lines");
    expect(button.getAttribute("aria-expanded")).to.equal("false");
    const look = getComputedStyle(button);
    expect(look.borderTopStyle, "it looks like a button, not like text").to.equal("solid");
    expect(root(el).getElementById(button.getAttribute("aria-controls")!)).to.equal(
      widget!.querySelector('[part~="lines"]'),
    );
    await expect(el).to.be.accessible();

    const opened = oneEvent(el, "pi-widget-toggle");
    button.click();
    expect((await opened).detail).to.deep.equal({ key: "log", expanded: true });
    await el.updateComplete;
    expect(lineTexts(widget!)).to.deep.equal(lines(25));
    expect(button.textContent?.trim()).to.equal("Show less");
    expect(widget!.querySelector('[part~="truncated"]'), "no truncated row once unfolded").to.equal(null);
    expect(button.getAttribute("aria-expanded")).to.equal("true");
    await expect(el).to.be.accessible();

    button.focus();
    await sendKeys({ press: "Enter" });
    await el.updateComplete;
    expect(lineTexts(widget!)).to.deep.equal(lines(10));
    await sendKeys({ press: " " }); // " ", not "Space": the name puppeteer (Firefox) and WebDriver also know
    await el.updateComplete;
    expect(lineTexts(widget!)).to.have.length(25);
  });

  it("keeps a widget's element, and the focus on its toggle, while it redraws and other widgets come and go", async () => {
    const el = await fixture<PiWidgetSlot>(html`<pi-widget-slot
      .widgets=${[{ key: "log", lines: lines(12) }, { key: "b", lines: ["b"] }]}
    ></pi-widget-slot>`);
    const log = widgets(el)[0]!;
    const button = toggle(log)!;
    button.focus();
    const blurs: string[] = [];
    button.addEventListener("blur", () => blurs.push("blur"));
    // One widget arrives before it while the one after it leaves, in one update; then only leaves, only arrive.
    for (const next of [
      [
        { key: "a", lines: ["a"] },
        { key: "log", lines: lines(13) },
      ],
      [{ key: "log", lines: lines(14) }],
      [
        { key: "log", lines: lines(15) },
        { key: "c", lines: ["c"] },
      ],
    ]) {
      el.widgets = next;
      await el.updateComplete;
    }
    expect(widgets(el).map((w) => w.dataset.key)).to.deep.equal(["log", "c"]);
    expect(widgets(el)[0] === log, "the same widget element").to.equal(true);
    expect(toggle(log) === button, "the same toggle").to.equal(true);
    expect(button.textContent?.trim()).to.equal("Show all 15 lines");
    expect(root(el).activeElement === button, "focus stays on the toggle").to.equal(true);
    expect(blurs).to.deep.equal([]);
  });

  it("keeps exactly 10 lines without a toggle, and honours max-lines", async () => {
    const el = await fixture<PiWidgetSlot>(html`<pi-widget-slot
      .widgets=${[{ key: "ten", lines: lines(10) }, { key: "eleven", lines: lines(11) }]}
    ></pi-widget-slot>`);
    expect(toggle(widgets(el)[0]!)).to.equal(null);
    expect(toggle(widgets(el)[1]!)).not.to.equal(null);
    el.maxLines = 3;
    await el.updateComplete;
    expect(lineTexts(widgets(el)[0]!)).to.deep.equal(lines(3));
    el.maxLines = -5;
    await el.updateComplete;
    expect(lineTexts(widgets(el)[0]!)).to.deep.equal(lines(1));
    el.setAttribute("max-lines", "lots");
    await el.updateComplete;
    expect(lineTexts(widgets(el)[0]!)).to.deep.equal(lines(10));
  });

  it("keeps blank lines with a line's height, and wraps long lines", async () => {
    const long = "word ".repeat(60);
    const el = await fixture<PiWidgetSlot>(
      html`<pi-widget-slot style="inline-size: 20rem" .widgets=${[{ key: "k", lines: ["a", "", "", long, "b"] }]}></pi-widget-slot>`,
    );
    const rows = [...widgets(el)[0]!.querySelectorAll<HTMLElement>('[part~="line"]')];
    expect(rows.map((r) => r.textContent)).to.deep.equal(["a", "", "", long, "b"]);
    const lineHeight = rows[0]!.getBoundingClientRect().height;
    expect(lineHeight).to.be.greaterThan(10);
    expect(rows[1]!.getBoundingClientRect().height).to.equal(lineHeight);
    expect(rows[3]!.getBoundingClientRect().height).to.be.greaterThan(lineHeight * 3);
    expect(rows[3]!.scrollWidth).to.be.at.most(rows[3]!.clientWidth);
  });

  it("renders ANSI and OSC 8 links, and markup in a line as text", async () => {
    const el = await fixture<PiWidgetSlot>(html`<pi-widget-slot
      .widgets=${[{ key: "x", lines: [`${E}[1;32m✓${E}[0m done ${E}]8;;https://pi.dev/${E}\\docs${E}]8;;${E}\\`, "<img src=x onerror=alert(1)>", `${E}]8;;javascript:alert(1)${E}\\js${E}]8;;${E}\\`] }]}
    ></pi-widget-slot>`);
    expect(lineTexts(widgets(el)[0]!)).to.deep.equal(["✓ done docs", "<img src=x onerror=alert(1)>", "js"]);
    expect(root(el).querySelector("img")).to.equal(null);
    const links = root(el).querySelectorAll("a");
    expect(links).to.have.length(1);
    expect(links[0]?.href).to.equal("https://pi.dev/");
    await expect(el).to.be.accessible();
  });

  it("follows a session: its placement only, in pi's order; a re-set widget moves to the end; expansion survives a redraw", async () => {
    const agent = new FakeAgent();
    const session = agent.session;
    setWidget(agent, "a", ["A"]);
    setWidget(agent, "below", ["B"], "belowEditor");
    setWidget(agent, "c", lines(12));
    const wrapper = await fixture<HTMLDivElement>(html`<div></div>`);
    new ContextProvider(wrapper, { context: sessionContext, initialValue: session });
    wrapper.append(
      document.createElement("pi-widget-slot"),
      Object.assign(document.createElement("pi-widget-slot"), { placement: "belowEditor" }),
    );
    const [above, below] = wrapper.querySelectorAll("pi-widget-slot");
    await settle();
    expect(widgets(above!).map((w) => w.dataset.key)).to.deep.equal(["a", "c"]);
    expect(widgets(below!).map((w) => w.dataset.key)).to.deep.equal(["below"]);

    toggle(widgets(above!)[1]!)!.click();
    setWidget(agent, "a", ["A2"]);
    setWidget(agent, "c", lines(14));
    await settle();
    expect(widgets(above!).map((w) => w.dataset.key)).to.deep.equal(["a", "c"]);
    expect(lineTexts(widgets(above!)[1]!)).to.have.length(14);
    setWidget(agent, "a", ["moved"], "belowEditor");
    await settle();
    expect(widgets(above!).map((w) => w.dataset.key)).to.deep.equal(["c"]);
    expect(widgets(below!).map((w) => w.dataset.key)).to.deep.equal(["below", "a"]);
    setWidget(agent, "c", undefined);
    await settle();
    expect(widgets(above!)).to.have.length(0);
    below!.placement = "aboveEditor";
    await below!.updateComplete;
    expect(widgets(below!)).to.have.length(0);
  });

  it("keeps markup in a session's widget key and lines as text", async () => {
    const agent = new FakeAgent();
    const key = `"><svg onload=alert(1)>`;
    setWidget(agent, key, ["<img src=x onerror=alert(1)>", "<iframe src=javascript:alert(1)>"]);
    await settle();
    const el = await fixture<PiWidgetSlot>(html`<pi-widget-slot .session=${agent.session}></pi-widget-slot>`);
    expect(widgets(el).map((w) => w.dataset.key)).to.deep.equal([key]);
    expect(lineTexts(widgets(el)[0]!)).to.deep.equal([
      "<img src=x onerror=alert(1)>",
      "<iframe src=javascript:alert(1)>",
    ]);
    expect(root(el).querySelector("img, iframe, svg:not([aria-hidden])")).to.equal(null);
  });

  it("handles CJK, emoji and right-to-left layout", async () => {
    const el = await fixture<PiWidgetSlot>(
      html`<pi-widget-slot dir="rtl" lang="zh-CN" .widgets=${[{ key: "k", lines: lines(11).map((l) => `任务 ${l} 🚀`) }]}></pi-widget-slot>`,
    );
    const [widget] = widgets(el);
    expect(lineTexts(widget!)[0]).to.equal("任务 line 1 🚀");
    expect(toggle(widget!)!.textContent?.trim()).to.equal("显示全部11行");
    expect(widget!.querySelector(`[part~="truncated"]`)?.textContent).to.equal("…（小组件已截断）");
    const style = getComputedStyle(widget!);
    expect(style.borderRightWidth).to.equal("3px");
    expect(style.borderLeftWidth).to.equal("0px");
    await expect(el).to.be.accessible();
  });

  for (const theme of ["light", "dark"] as const) {
    it(`passes axe in the ${theme} theme, folded and unfolded, and takes a screenshot`, async () => {
      const palette = [0, 1, 2, 3, 4, 5, 6, 7]
        .map((n) => `${E}[${30 + n}mcolour${n}${E}[${90 + n}m bright${n}`)
        .join(" ");
      const el = await fixture<PiWidgetSlot>(
        html`<pi-widget-slot id="shot" theme=${theme} style="inline-size: 40rem" .widgets=${[
          {
            key: "plan",
            lines: [
              `${E}[1mPlan${E}[22m`,
              `${E}[32m✓${E}[39m read files`,
              `${E}[33m…${E}[39m write tests`,
              "",
              `${E}[2mdim note${E}[22m · ${E}[3mitalic${E}[23m · ${E}[4munderline${E}[24m · ${E}[9mstruck${E}[29m`,
              palette,
              `${E}[38;5;202m256-colour${E}[39m ${E}[38;2;138;190;183m24-bit${E}[39m ${E}[7minverse${E}[27m ${E}[48;5;236;38;5;231m on bg ${E}[0m`,
              `${E}]8;;https://pi.dev/${E}\\link${E}]8;;${E}\\ <b>markup</b> 中文 日本語`,
              ...lines(5),
            ],
          },
          { key: "small", lines: ["a second widget"] },
        ]}></pi-widget-slot>`,
      );
      await expect(el).to.be.accessible();
      await executeServerCommand("screenshot", { name: `widget-slot-${theme}`, selector: "#shot" });
      toggle(widgets(el)[0]!)!.click();
      await el.updateComplete;
      await expect(el).to.be.accessible();
      await executeServerCommand("screenshot", { name: `widget-slot-${theme}-expanded`, selector: "#shot" });
    });
  }

  it("follows prefers-color-scheme without a theme attribute, and stays usable in forced colors", async function (this: Mocha.Context) {
    // Skipped where the driver cannot emulate media features (Firefox over WebDriver BiDi, WebKit over WebDriver
    // classic have no prefers-color-scheme / forced-colors emulation); the themes are still checked there through
    // the theme attribute and the screenshots.
    if (!(await engine()).media) return this.skip();
    const el = await fixture<PiWidgetSlot>(
      html`<pi-widget-slot id="shot" style="inline-size: 30rem" .widgets=${[{ key: "k", lines: [`${E}[32mgreen${E}[0m`, "", ...lines(10)] }]}></pi-widget-slot>`,
    );
    const widget = widgets(el)[0]!;
    try {
      await emulate({ colorScheme: "dark" });
      expect(getComputedStyle(widget).backgroundColor).to.equal("rgb(38, 38, 46)");
      await emulate({ colorScheme: "light" });
      expect(getComputedStyle(widget).backgroundColor).to.equal("rgb(244, 244, 247)");
      await emulate({ forcedColors: "active" });
      await expect(el).to.be.accessible();
      await executeServerCommand("screenshot", { name: "widget-slot-forced-colors", selector: "#shot" });
    } finally {
      await emulate({ forcedColors: "none", colorScheme: "light" });
    }
  });
});
