import { expect, fixture, html, waitUntil as waitUntilOwc } from "@open-wc/testing";
import { executeServerCommand, sendKeys } from "@web/test-runner-commands";
import "../src/elements/model-picker/define.js";
import "../src/elements/session/define.js";
import type { PiModelPicker } from "../src/elements/model-picker/model-picker.js";
import { ControlsAgent, VERSIONS } from "./support/controls-agent.js";

/**
 * @open-wc's waitUntil with a 10 s limit (its default is 1 s): the store notifies once per animation frame, and with
 * three engines sharing two cores a frame can take longer than that.
 */
const waitUntil = (condition: () => unknown, message?: string) => waitUntilOwc(condition, message, { timeout: 10_000 });

const $ = (el: PiModelPicker, selector: string) => el.shadowRoot!.querySelector<HTMLElement>(selector);
const trigger = (el: PiModelPicker) => $(el, '[part~="trigger"]')!;
const filter = (el: PiModelPicker) => $(el, '[part~="filter"]') as HTMLInputElement | null;
const options = (el: PiModelPicker) => [...el.shadowRoot!.querySelectorAll<HTMLElement>('[role="option"]')];
const ids = (el: PiModelPicker) => options(el).map((o) => `${o.dataset["provider"]}/${o.dataset["id"]}`);
const active = (el: PiModelPicker) => options(el).find((o) => o.getAttribute("aria-selected") === "true");
const deepActive = () => {
  let node = document.activeElement;
  while (node?.shadowRoot?.activeElement) node = node.shadowRoot.activeElement;
  return node;
};

async function mount(version: (typeof VERSIONS)[number], lang = "en") {
  const agent = await ControlsAgent.start(version);
  const el = await fixture<PiModelPicker>(
    html`<pi-model-picker .session=${agent.session} lang=${lang}></pi-model-picker>`,
  );
  await waitUntil(() => el.model !== undefined, "pi's model arrives");
  await el.updateComplete;
  return { agent, el };
}

async function press(el: PiModelPicker, ...keys: string[]) {
  for (const key of keys) {
    await sendKeys({ press: key });
    await el.updateComplete;
  }
}

async function open(el: PiModelPicker) {
  trigger(el).focus();
  await press(el, "Enter");
  await waitUntil(() => filter(el) && el.shadowRoot!.activeElement === filter(el), "the filter has focus");
}

describe("pi-model-picker", () => {
  for (const version of VERSIONS) {
    it(`lists pi ${version}'s models grouped by provider, current first, with reasoning and context window`, async () => {
      const { el } = await mount(version);
      expect(trigger(el).textContent!.replace(/\s+/g, " ").trim()).to.equal("(scripted) Scripted test model");
      expect(trigger(el).getAttribute("aria-label")).to.equal("Model: Scripted test model");
      expect(trigger(el).getAttribute("aria-haspopup")).to.equal("listbox");
      expect(trigger(el).getAttribute("aria-expanded")).to.equal("false");
      await open(el);
      expect(trigger(el).getAttribute("aria-expanded")).to.equal("true");
      const groups = [...el.shadowRoot!.querySelectorAll<HTMLElement>('[role="group"]')];
      expect(
        groups.map((g) => el.shadowRoot!.getElementById(g.getAttribute("aria-labelledby")!)!.textContent),
      ).to.deep.equal(["scripted", "scripted-b"]);
      expect(ids(el)).to.deep.equal(["scripted/scripted-model", "scripted/scripted-plain", "scripted-b/b-model"]);
      const [current, plain, b] = options(el);
      expect(current!.textContent!.replace(/\s+/g, " ").trim()).to.equal(
        "Scripted test model(current) scripted-model reasoning 128k contextcontext window 128,000 tokens",
      );
      expect(current!.getAttribute("part")).to.include("current");
      expect(plain!.querySelectorAll('[part~="badge"]')).to.have.length(1);
      expect(b!.textContent).to.include("1.0M context");
      const combo = filter(el)!;
      expect(combo.getAttribute("role")).to.equal("combobox");
      expect(combo.getAttribute("aria-expanded")).to.equal("true");
      expect(combo.getAttribute("aria-controls")).to.equal("listbox");
      expect(combo.getAttribute("aria-activedescendant")).to.equal(current!.id);
      expect(active(el)).to.equal(current);
    });

    it(`sends exactly {type: "set_model", provider, modelId} on pi ${version} and shows pi's new model`, async () => {
      const { agent, el } = await mount(version);
      await open(el);
      await press(el, "ArrowDown", "ArrowDown");
      expect(active(el)!.dataset["id"]).to.equal("b-model");
      expect(filter(el)!.getAttribute("aria-activedescendant")).to.equal(active(el)!.id);
      await press(el, "ArrowUp");
      expect(active(el)!.dataset["id"]).to.equal("scripted-plain");
      const from = agent.sent.length;
      await press(el, "Enter");
      expect(agent.sent.slice(from)[0]).to.deep.equal({
        type: "set_model",
        provider: "scripted",
        modelId: "scripted-plain",
      });
      expect(el.open).to.equal(false);
      expect(deepActive()).to.equal(trigger(el));
      await waitUntil(() => el.model?.id === "scripted-plain", "the store takes pi's answer");
      await el.updateComplete;
      expect(trigger(el).getAttribute("aria-label")).to.equal("Model: Scripted plain model");
      // The store asked pi again (the core's refresh rule), the element did not.
      await waitUntil(() => agent.sent.slice(from).some((c) => c.type === "get_state"));
      expect(agent.commands("set_model")).to.have.length(1);
    });
  }

  it("filters as the user types, by provider, id or name; Enter chooses the first match", async () => {
    const { agent, el } = await mount("1.6.0");
    await open(el);
    await sendKeys({ type: "SECOND" });
    await el.updateComplete;
    expect(ids(el)).to.deep.equal(["scripted-b/b-model"]);
    expect(active(el)!.dataset["id"]).to.equal("b-model");
    await press(el, "Backspace", "Backspace", "Backspace", "Backspace", "Backspace", "Backspace");
    await sendKeys({ type: "plain" });
    await el.updateComplete;
    expect(ids(el)).to.deep.equal(["scripted/scripted-plain"]);
    await sendKeys({ type: "zzz" });
    await el.updateComplete;
    expect(options(el)).to.have.length(0);
    expect($(el, '[part~="empty"]')!.textContent).to.equal("No model matches.");
    expect(filter(el)!.getAttribute("aria-expanded")).to.equal("false");
    await press(el, "Enter");
    expect(agent.commands("set_model")).to.have.length(0);
    await press(el, "Backspace", "Backspace", "Backspace");
    await press(el, "Enter");
    expect(agent.commands("set_model")).to.deep.equal([
      { type: "set_model", provider: "scripted", modelId: "scripted-plain" },
    ]);
  });

  it("Esc closes the list without sending and gives focus back to the button; Tab away closes it too", async () => {
    const agent = await ControlsAgent.start("0.73.1");
    const box = await fixture<HTMLElement>(
      html`<div><pi-model-picker .session=${agent.session}></pi-model-picker><button>after</button></div>`,
    );
    const el = box.querySelector("pi-model-picker")!;
    await waitUntil(() => el.model !== undefined, "pi's model arrives");
    await open(el);
    await press(el, "ArrowDown", "Escape");
    expect(el.open).to.equal(false);
    expect(deepActive()).to.equal(trigger(el));
    await press(el, "ArrowDown");
    await waitUntil(() => el.open && el.shadowRoot!.activeElement === filter(el), "ArrowDown on the button opens");
    // Tab goes on to the next control in the page (and stays in the page, where the next test's keys go).
    await press(el, "Tab");
    expect(el.open).to.equal(false);
    expect(document.activeElement).to.equal(box.querySelector("button"));
    expect(agent.commands("set_model")).to.have.length(0);
  });

  it("chooses with a click", async () => {
    const { agent, el } = await mount("1.6.0");
    await open(el);
    options(el)[2]!.click();
    await waitUntil(() => agent.commands("set_model").length > 0);
    expect(agent.commands("set_model")).to.deep.equal([
      { type: "set_model", provider: "scripted-b", modelId: "b-model" },
    ]);
  });

  it("while pi is not running (its exit reported) is disabled with the reason; back when it starts again", async () => {
    const { agent, el } = await mount("1.6.0");
    agent.send({ type: "pi-elements/agent_exit", code: 1, signal: null, stderrTail: [], restart: "on-request" });
    await waitUntil(() => (trigger(el) as HTMLButtonElement).disabled, "the exit reported");
    const note = $(el, '[part~="note"]')!;
    expect(note.textContent).to.equal("pi is not running.");
    // A hint, muted as the other controls' reasons are, not text at full contrast.
    expect(getComputedStyle(note).color).to.not.equal(getComputedStyle(el).color);
    expect(trigger(el).getAttribute("aria-describedby")).to.equal(note.id);
    agent.send({ type: "pi-elements/agent_start", pid: 9 });
    await waitUntil(() => !(trigger(el) as HTMLButtonElement).disabled, "pi started again");
    expect($(el, '[part~="note"]')).to.equal(null);
  });

  it("shows pi's refusal beside the button, in words, and keeps pi's model", async () => {
    const { agent, el } = await mount("0.73.1");
    agent.failing.set("set_model", "Model not found: scripted/scripted-plain");
    await open(el);
    await press(el, "ArrowDown", "Enter");
    await waitUntil(() => $(el, '[part~="error"]'), "the error");
    const error = $(el, '[part~="error"]')!;
    expect(error.getAttribute("role")).to.equal("alert");
    expect(error.textContent).to.equal("pi did not switch the model: Model not found: scripted/scripted-plain");
    expect(trigger(el).getAttribute("aria-label")).to.equal("Model: Scripted test model");
  });

  it("says so while pi's models have not arrived, and finds its session from <pi-session>", async () => {
    const agent = await ControlsAgent.start("1.6.0");
    agent.silent.add("get_available_models");
    const box = await fixture<HTMLElement>(
      html`<pi-session .session=${agent.session}><pi-model-picker></pi-model-picker></pi-session>`,
    );
    const el = box.querySelector("pi-model-picker")!;
    await waitUntil(() => el.model !== undefined, "the model from the context's session");
    await open(el);
    expect($(el, '[part~="empty"]')!.textContent).to.equal("Loading models…");
  });

  it("speaks Japanese and Chinese, and lays out right to left", async () => {
    const ja = (await mount("1.6.0", "ja")).el;
    expect(trigger(ja).getAttribute("aria-label")).to.equal("モデル: Scripted test model");
    await open(ja);
    expect(filter(ja)!.getAttribute("aria-label")).to.equal("モデルを絞り込む");
    expect(options(ja)[0]!.textContent).to.include("推論");
    const zh = (await mount("0.73.1", "zh-Hans")).el;
    expect(trigger(zh).getAttribute("aria-label")).to.equal("模型: Scripted test model");
    const agent = await ControlsAgent.start("1.6.0");
    const box = await fixture<HTMLElement>(
      html`<div dir="rtl" style="inline-size: 40rem"><pi-model-picker .session=${agent.session}></pi-model-picker></div>`,
    );
    const rtl = box.querySelector("pi-model-picker")!;
    await waitUntil(() => rtl.model !== undefined);
    await open(rtl);
    const popup = $(rtl, '[part~="popup"]')!.getBoundingClientRect();
    expect(Math.abs(popup.right - trigger(rtl).getBoundingClientRect().right)).to.be.below(2);
  });

  for (const theme of ["light", "dark"] as const) {
    it(`passes axe open and closed in the ${theme} theme and takes a screenshot`, async () => {
      const agent = await ControlsAgent.start("1.6.0");
      const box = await fixture<HTMLElement>(
        html`<div id="shot" style="block-size: 20rem; inline-size: 30rem; padding: 8px; background: ${theme === "dark" ? "#1e1e24" : "#fff"}">
          <pi-model-picker theme=${theme} .session=${agent.session}></pi-model-picker>
        </div>`,
      );
      const el = box.querySelector("pi-model-picker")!;
      await waitUntil(() => el.model !== undefined);
      await expect(el).to.be.accessible();
      await open(el);
      await press(el, "ArrowDown");
      await expect(el).to.be.accessible();
      await executeServerCommand("screenshot", { name: `model-picker-${theme}`, selector: "#shot" });
    });
  }
});
