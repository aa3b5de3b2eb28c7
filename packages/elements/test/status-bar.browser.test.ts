import { ContextProvider } from "@lit/context";
import { expect, fixture, html, nextFrame } from "@open-wc/testing";
import { executeServerCommand } from "@web/test-runner-commands";
import { emulate, engine } from "../../../test/support/engine.js";
import { MAX_STYLED_RUNS } from "../src/ansi/render-ansi.js";
import { sessionContext } from "../src/context.js";
import "../src/elements/status-bar/define.js";
import { PiStatusBar } from "../src/elements/status-bar/status-bar.js";
import { FakeAgent, settle } from "./session-fake-agent.js";

const E = "\u001b";

function setStatus(agent: FakeAgent, key: string, text: string | undefined): void {
  agent.request("setStatus", { statusKey: key, ...(text === undefined ? {} : { statusText: text }) });
}

const entries = (el: PiStatusBar) => [...el.shadowRoot!.querySelectorAll<HTMLElement>('[part~="entry"]')];
const keys = (el: PiStatusBar) => entries(el).map((e) => e.dataset.key);
const texts = (el: PiStatusBar) => entries(el).map((e) => e.textContent);

class CountingStatusBar extends PiStatusBar {
  renders = 0;
  protected override render() {
    this.renders++;
    return super.render();
  }
}
customElements.define("counting-status-bar", CountingStatusBar);

describe("pi-status-bar", () => {
  it("shows standalone statuses sorted by key, sanitized as pi does, each with part=entry and data-key", async () => {
    const el = await fixture<PiStatusBar>(html`<pi-status-bar
      .statuses=${[
        { key: "zeta", text: "last" },
        { key: "alpha", text: "  two\twords\r\nand   spaces  " },
        { key: "beta", text: "" },
      ]}
    ></pi-status-bar>`);
    expect(keys(el)).to.deep.equal(["alpha", "beta", "zeta"]);
    expect(texts(el)).to.deep.equal(["two words and spaces", "", "last"]);
    const list = el.shadowRoot!.querySelector('[part~="list"]');
    expect(list?.getAttribute("aria-label")).to.equal("Status");
  });

  it("takes no room while it has no status (a page's footer shows no empty box), and its line once it has one", async () => {
    const el = await fixture<PiStatusBar>(html`<pi-status-bar></pi-status-bar>`);
    expect(el.getBoundingClientRect().height).to.equal(0);
    el.statuses = [{ key: "a", text: "ready" }];
    await el.updateComplete;
    expect(el.getBoundingClientRect().height).to.be.greaterThan(10);
    el.statuses = [];
    await el.updateComplete;
    expect(el.getBoundingClientRect().height).to.equal(0);
  });

  it("truncates inside a narrow grid or flex track instead of widening it to fit every entry", async () => {
    const statuses = Array.from({ length: 8 }, (_, i) => ({ key: `k${i}`, text: `a long status entry number ${i}` }));
    for (const display of ["grid", "flex"]) {
      const box = await fixture<HTMLDivElement>(html`<div style="display: ${display}; inline-size: 300px">
        <pi-status-bar .statuses=${statuses}></pi-status-bar>
      </div>`);
      const bar = box.querySelector("pi-status-bar")!;
      await bar.updateComplete;
      expect(bar.getBoundingClientRect().width, display).to.be.at.most(300);
      expect(box.scrollWidth, display).to.equal(300);
    }
  });

  it("gives bad standalone input a defined outcome: last text of a repeated key, no crash on junk", async () => {
    const el = await fixture<PiStatusBar>(html`<pi-status-bar
      .statuses=${[{ key: "k", text: "first" }, null, { key: "k", text: "second" }, { key: 7, text: 42 }]}
    ></pi-status-bar>`);
    expect(keys(el)).to.deep.equal(["7", "k"]);
    expect(texts(el)).to.deep.equal(["42", "second"]);
    el.statuses = null as unknown as [];
    await el.updateComplete;
    expect(entries(el)).to.have.length(0);
  });

  it("renders ANSI styling instead of leaking escapes, and markup as text", async () => {
    const el = await fixture<PiStatusBar>(html`<pi-status-bar
      .statuses=${[
        { key: "a", text: `${E}[38;2;138;190;183m● ready${E}[39m ${E}[1mbold${E}[22m` },
        { key: "b", text: "<img src=x onerror=alert(1)><script>x()</script>" },
      ]}
    ></pi-status-bar>`);
    expect(texts(el)).to.deep.equal(["● ready bold", "<img src=x onerror=alert(1)><script>x()</script>"]);
    const spans = entries(el)[0]!.querySelectorAll("span");
    expect(spans[0]?.style.getPropertyValue("--_fg")).to.equal("#8abeb7");
    el.theme = "dark";
    await el.updateComplete;
    const darkColor = getComputedStyle(spans[0]!).color;
    el.theme = "light";
    await el.updateComplete;
    const lightColor = getComputedStyle(spans[0]!).color;
    // Kept as sent where it reads well (dark), darkened to stay readable on the light background, hue kept.
    expect(darkColor).to.match(/^oklch\(0\.763\d* 0\.055\d* 185\.7\d*\)$/);
    expect(lightColor).to.match(/^oklch\(0\.5 0\.055\d* 185\.7\d*\)$/);
    expect(getComputedStyle(spans[1]!).fontWeight).to.equal("700");
    expect(el.shadowRoot!.querySelector("img, script")).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it("follows a session's statuses: set, change, clear and an empty text", async () => {
    const agent = new FakeAgent();
    setStatus(agent, "git", "main");
    await settle();
    const el = await fixture<PiStatusBar>(html`<pi-status-bar .session=${agent.session}></pi-status-bar>`);
    expect(texts(el)).to.deep.equal(["main"]);
    setStatus(agent, "build", "ok");
    setStatus(agent, "git", "feature");
    setStatus(agent, "empty", "");
    await settle();
    expect(keys(el)).to.deep.equal(["build", "empty", "git"]);
    expect(texts(el)).to.deep.equal(["ok", "", "feature"]);
    setStatus(agent, "git", undefined);
    await settle();
    expect(keys(el)).to.deep.equal(["build", "empty"]);
    agent.session.reset();
    await settle();
    expect(entries(el)).to.have.length(0);
    await expect(el).to.be.accessible();
  });

  it("keeps markup in a session's status key and text as text", async () => {
    const agent = new FakeAgent();
    const key = `"><img src=x onerror=alert(1)>`;
    setStatus(agent, key, "<script>alert(1)</script>\n<b>x</b>");
    await settle();
    const el = await fixture<PiStatusBar>(html`<pi-status-bar .session=${agent.session}></pi-status-bar>`);
    expect(keys(el)).to.deep.equal([key]);
    expect(texts(el)).to.deep.equal(["<script>alert(1)</script> <b>x</b>"]);
    expect(el.shadowRoot!.querySelector("img, script, b")).to.equal(null);
  });

  it("finds the session of an ancestor through context, and prefers its own session property", async () => {
    const a = new FakeAgent();
    const b = new FakeAgent();
    setStatus(a, "k", "from context");
    setStatus(b, "k", "own");
    await settle();
    const wrapper = await fixture<HTMLDivElement>(html`<div></div>`);
    new ContextProvider(wrapper, { context: sessionContext, initialValue: a.session });
    const el = document.createElement("pi-status-bar");
    wrapper.append(el);
    await el.updateComplete;
    expect(texts(el)).to.deep.equal(["from context"]);
    el.session = b.session;
    await el.updateComplete;
    expect(texts(el)).to.deep.equal(["own"]);
    setStatus(a, "k", "ignored");
    setStatus(b, "k", "own 2");
    await settle();
    expect(texts(el)).to.deep.equal(["own 2"]);
  });

  it("keeps an entry's element, and the focus in it, while its text changes and other keys come and go", async () => {
    const el = await fixture<PiStatusBar>(html`<pi-status-bar
      .statuses=${[{ key: "b", text: "B" }, { key: "c", text: "C" }]}
    ></pi-status-bar>`);
    const entryB = entries(el)[0]!;
    entryB.tabIndex = 0;
    entryB.focus();
    const blurs: string[] = [];
    entryB.addEventListener("blur", () => blurs.push("blur"));
    // Only arrivals; arrivals and departures around it; one arrives before it while the one after it leaves.
    for (const statuses of [
      [
        { key: "a", text: "A" },
        { key: "b", text: "B" },
        { key: "c", text: "C" },
      ],
      [
        { key: "b", text: "B2" },
        { key: "d", text: "D" },
      ],
      [
        { key: "0", text: "zero" },
        { key: "b", text: "B3" },
      ],
    ]) {
      el.statuses = statuses;
      await el.updateComplete;
    }
    expect(keys(el)).to.deep.equal(["0", "b"]);
    expect(entries(el)[1] === entryB, "the same element").to.equal(true);
    expect(entryB.textContent).to.equal("B3");
    expect(el.shadowRoot!.activeElement === entryB, "focus stays on the entry").to.equal(true);
    expect(blurs).to.deep.equal([]);
  });

  it("shows a status of 100,000 SGR sequences in full, with a bounded number of styled spans", async () => {
    const text = Array.from(
      { length: 100_000 },
      (_, i) => `${E}[3${(i % 7) + 1}m${String.fromCharCode(97 + (i % 26))}`,
    );
    const el = await fixture<PiStatusBar>(
      html`<pi-status-bar .statuses=${[{ key: "rainbow", text: text.join("") }]}></pi-status-bar>`,
    );
    const entry = entries(el)[0]!;
    expect(entry.querySelectorAll("span").length).to.equal(MAX_STYLED_RUNS);
    const visible = Array.from({ length: 100_000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join("");
    expect(entry.textContent).to.equal(visible);
    expect(entry.title).to.equal(visible);
  });

  it("renders at most twice for a burst of 2,000 setStatus", async () => {
    const agent = new FakeAgent();
    const el = await fixture<CountingStatusBar>(
      html`<counting-status-bar .session=${agent.session}></counting-status-bar>`,
    );
    el.renders = 0;
    for (let i = 0; i < 2000; i++) setStatus(agent, `key${i % 50}`, `value ${i}`);
    await settle();
    await nextFrame();
    expect(el.renders).to.be.within(1, 2);
    expect(entries(el)).to.have.length(50);
    expect(entries(el).find((e) => e.dataset.key === "key49")?.textContent).to.equal("value 1999");
  });

  it("keeps one line with an ellipsis; a truncated entry has its full text as title and becomes focusable", async () => {
    const long = "a very long status text that cannot possibly fit in the narrow bar given to it here";
    const el = await fixture<PiStatusBar>(html`<pi-status-bar
      style="inline-size: 20rem"
      .statuses=${[{ key: "a", text: "short" }, { key: "b", text: `${E}[31m${long}${E}[0m` }]}
    ></pi-status-bar>`);
    await nextFrame();
    const [short, truncated] = entries(el);
    expect(el.getBoundingClientRect().height).to.be.below(40);
    const list = el.shadowRoot!.querySelector<HTMLElement>('[part~="list"]')!;
    expect(list.scrollWidth).to.be.greaterThan(list.clientWidth);
    expect(getComputedStyle(list).textOverflow).to.equal("ellipsis");
    expect(truncated!.title).to.equal(long);
    expect(truncated!.tabIndex).to.equal(0);
    expect(short!.hasAttribute("tabindex")).to.equal(false);
    truncated!.focus();
    await nextFrame();
    expect(el.shadowRoot!.activeElement).to.equal(truncated);
    expect(list.scrollWidth).to.be.at.most(list.clientWidth);
    expect(el.getBoundingClientRect().height).to.be.greaterThan(50);
    await expect(el).to.be.accessible();
    truncated!.blur();
    await nextFrame();
    await nextFrame();
    expect(el.getBoundingClientRect().height).to.be.below(40);
    expect(truncated!.tabIndex).to.equal(0);
  });

  it("takes no room while it has no status, and its line comes back with the first one", async () => {
    const agent = new FakeAgent();
    const el = await fixture<PiStatusBar>(html`<pi-status-bar .session=${agent.session}></pi-status-bar>`);
    await settle();
    expect(el.getBoundingClientRect().height, "empty: no bare strip").to.equal(0);
    setStatus(agent, "build", "building");
    await settle();
    expect(el.getBoundingClientRect().height).to.be.greaterThan(10);
    setStatus(agent, "build", undefined);
    await settle();
    expect(el.getBoundingClientRect().height, "cleared again").to.equal(0);
  });

  it("wraps instead of truncating with the wrap attribute", async () => {
    const long = "wrapping mode shows every word of this status on as many lines as it needs to";
    const el = await fixture<PiStatusBar>(
      html`<pi-status-bar wrap style="inline-size: 12rem" .statuses=${[{ key: "a", text: long }]}></pi-status-bar>`,
    );
    await nextFrame();
    const [entry] = entries(el);
    const list = el.shadowRoot!.querySelector<HTMLElement>('[part~="list"]')!;
    expect(list.scrollWidth).to.be.at.most(list.clientWidth);
    expect(el.getBoundingClientRect().height).to.be.greaterThan(50);
    expect(entry!.hasAttribute("tabindex")).to.equal(false);
  });

  it("lays out right to left under dir=rtl, and handles CJK and emoji", async () => {
    const el = await fixture<PiStatusBar>(
      html`<pi-status-bar dir="rtl" .statuses=${[
        { key: "1", text: "状态：正常 ✅" },
        { key: "2", text: "ステータス 🚀👩‍💻" },
      ]}></pi-status-bar>`,
    );
    const [first, second] = entries(el);
    expect(first!.getBoundingClientRect().right).to.be.greaterThan(second!.getBoundingClientRect().right);
    expect(texts(el)).to.deep.equal(["状态：正常 ✅", "ステータス 🚀👩‍💻"]);
    await expect(el).to.be.accessible();
  });

  it("names the list in the nearest language", async () => {
    const wrapper = await fixture<HTMLDivElement>(
      html`<div lang="ja"><pi-status-bar .statuses=${[{ key: "a", text: "x" }]}></pi-status-bar></div>`,
    );
    const el = wrapper.querySelector("pi-status-bar")!;
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part~="list"]')?.getAttribute("aria-label")).to.equal("ステータス");
  });

  for (const theme of ["light", "dark"] as const) {
    it(`passes axe in the ${theme} theme, empty and full, and takes a screenshot`, async () => {
      const statuses = [
        { key: "1-git", text: `${E}[32m⎇ main${E}[39m ${E}[2m+3 −1${E}[22m` },
        { key: "2-model", text: `${E}[38;2;138;190;183mclaude-sonnet${E}[39m · ${E}[33m42% context${E}[39m` },
        {
          key: "3-ansi",
          text: `${[0, 1, 2, 3, 4, 5, 6, 7].map((n) => `${E}[${30 + n}m■${E}[${90 + n}m■`).join("")}${E}[0m`,
        },
        { key: "4-link", text: `${E}]8;;https://pi.dev/${E}\\docs${E}]8;;${E}\\ <b>not bold</b> 中文 🚀` },
        {
          key: "5-long",
          text: "a long status that will be cut with an ellipsis at the end of the bar because it is long",
        },
      ];
      const empty = await fixture<PiStatusBar>(html`<pi-status-bar theme=${theme}></pi-status-bar>`);
      await expect(empty).to.be.accessible();
      const el = await fixture<PiStatusBar>(html`<div style="inline-size: 44rem; padding: 4px">
        <pi-status-bar id="shot" theme=${theme} .statuses=${statuses}></pi-status-bar>
        <pi-status-bar wrap theme=${theme} .statuses=${statuses}></pi-status-bar>
      </div>`);
      const bar = el.querySelector("pi-status-bar")!;
      await nextFrame();
      await expect(bar).to.be.accessible();
      await expect(el.querySelector("pi-status-bar[wrap]")).to.be.accessible();
      const background = getComputedStyle(bar).backgroundColor;
      expect(background).to.equal(theme === "light" ? "rgb(244, 244, 247)" : "rgb(38, 38, 46)");
      await executeServerCommand("screenshot", { name: `status-bar-${theme}`, selector: "div:has(> #shot)" });
    });
  }

  it("follows prefers-color-scheme without a theme attribute, and stays usable in forced colors", async function (this: Mocha.Context) {
    // Skipped where the driver cannot emulate media features (Firefox over WebDriver BiDi, WebKit over WebDriver
    // classic have no prefers-color-scheme / forced-colors emulation); the themes are still checked there through
    // the theme attribute and the screenshots.
    if (!(await engine()).media) return this.skip();
    const statuses = [{ key: "a", text: `${E}[31mred${E}[0m ${E}[38;5;67m256${E}[0m plain` }];
    const el = await fixture<PiStatusBar>(html`<pi-status-bar id="shot" .statuses=${statuses}></pi-status-bar>`);
    try {
      await emulate({ colorScheme: "dark" });
      expect(getComputedStyle(el).backgroundColor).to.equal("rgb(38, 38, 46)");
      await emulate({ colorScheme: "light" });
      expect(getComputedStyle(el).backgroundColor).to.equal("rgb(244, 244, 247)");
      await emulate({ forcedColors: "active" });
      await expect(el).to.be.accessible();
      await executeServerCommand("screenshot", { name: "status-bar-forced-colors", selector: "#shot" });
    } finally {
      await emulate({ forcedColors: "none", colorScheme: "light" });
    }
  });
});

describe("SessionStoreController (through pi-status-bar)", () => {
  it("unsubscribes when disconnected and catches up when connected again", async () => {
    const agent = new FakeAgent();
    const ui = agent.session.ui;
    let listeners = 0;
    const subscribe = ui.subscribe.bind(ui);
    ui.subscribe = (listener) => {
      listeners++;
      const unsubscribe = subscribe(listener);
      return () => {
        listeners--;
        unsubscribe();
      };
    };
    const el = await fixture<PiStatusBar>(html`<pi-status-bar .session=${agent.session}></pi-status-bar>`);
    expect(listeners).to.equal(1);
    const parent = el.parentElement!;
    el.remove();
    expect(listeners).to.equal(0);
    setStatus(agent, "k", "while away");
    await settle();
    parent.append(el);
    await el.updateComplete;
    expect(listeners).to.equal(1);
    expect(texts(el)).to.deep.equal(["while away"]);
    el.session = undefined;
    await el.updateComplete;
    expect(listeners).to.equal(0);
    expect(entries(el)).to.have.length(0);
  });

  it("does not re-render for changes outside its slice", async () => {
    const agent = new FakeAgent();
    setStatus(agent, "k", "v");
    await settle();
    const el = await fixture<CountingStatusBar>(
      html`<counting-status-bar .session=${agent.session}></counting-status-bar>`,
    );
    el.renders = 0;
    agent.request("setTitle", { title: "new title" });
    agent.request("notify", { message: "hello" });
    await settle();
    expect(agent.session.ui.getSnapshot().title).to.equal("new title");
    expect(el.renders).to.equal(0);
    setStatus(agent, "k", "v2");
    await settle();
    expect(el.renders).to.equal(1);
  });
});
