import { expect, fixture, html, waitUntil as waitUntilOwc } from "@open-wc/testing";
import { executeServerCommand } from "@web/test-runner-commands";
import "../src/elements/thinking-level/define.js";
import { offeredThinkingLevels, type PiThinkingLevel } from "../src/elements/thinking-level/thinking-level.js";
import { ControlsAgent, VERSIONS } from "./support/controls-agent.js";

/**
 * @open-wc's waitUntil with a 10 s limit (its default is 1 s): the store notifies once per animation frame, and with
 * three engines sharing two cores a frame can take longer than that.
 */
const waitUntil = (condition: () => unknown, message?: string) => waitUntilOwc(condition, message, { timeout: 10_000 });

const select = (el: PiThinkingLevel) => el.shadowRoot!.querySelector("select")!;
const values = (el: PiThinkingLevel) => [...select(el).options].map((o) => o.value);
const labels = (el: PiThinkingLevel) => [...select(el).options].map((o) => o.textContent!.trim());

async function mount(version: (typeof VERSIONS)[number], lang = "en", theme = "light") {
  const agent = await ControlsAgent.start(version);
  const el = await fixture<PiThinkingLevel>(
    html`<pi-thinking-level .session=${agent.session} lang=${lang} theme=${theme}></pi-thinking-level>`,
  );
  await waitUntil(() => el.level !== undefined && el.levels.length > 1, "pi's level and levels arrive");
  await el.updateComplete;
  return { agent, el };
}

async function choose(el: PiThinkingLevel, level: string) {
  select(el).value = level;
  select(el).dispatchEvent(new Event("change", { bubbles: true }));
  await el.updateComplete;
}

const info = (over: Record<string, unknown>) =>
  ({
    model: undefined,
    availableModels: undefined,
    thinkingLevel: undefined,
    availableThinkingLevels: undefined,
    sessionId: undefined,
    sessionName: undefined,
    sessionFile: undefined,
    isStreaming: false,
    isCompacting: false,
    stats: undefined,
    ...over,
  }) as Parameters<typeof offeredThinkingLevels>[0];

describe("pi-thinking-level", () => {
  it("offers pi 1.6's own list, else applies pi 0.73.1's rule to the model object", () => {
    const reasoning = { provider: "p", id: "m", reasoning: true };
    expect(offeredThinkingLevels(info({ availableThinkingLevels: ["off", "high", "max"] }))).to.deep.equal([
      "off",
      "high",
      "max",
    ]);
    expect(offeredThinkingLevels(info({ model: reasoning }))).to.deep.equal([
      "off",
      "minimal",
      "low",
      "medium",
      "high",
    ]);
    expect(
      offeredThinkingLevels(info({ model: { ...reasoning, thinkingLevelMap: { minimal: null, xhigh: "xhigh" } } })),
    ).to.deep.equal(["off", "low", "medium", "high", "xhigh"]);
    expect(offeredThinkingLevels(info({ model: { provider: "p", id: "plain" } }))).to.deep.equal(["off"]);
    // The current level is always offered; without a model it is the only one.
    expect(offeredThinkingLevels(info({ thinkingLevel: "high" }))).to.deep.equal(["high"]);
    expect(offeredThinkingLevels(info({ model: { provider: "p", id: "plain" }, thinkingLevel: "low" }))).to.deep.equal([
      "off",
      "low",
    ]);
  });

  for (const version of VERSIONS) {
    it(`offers the reasoning model's levels on pi ${version}, pi's current one selected`, async () => {
      const { agent, el } = await mount(version);
      expect(values(el)).to.deep.equal(["off", "minimal", "low", "medium", "high"]);
      expect(labels(el)).to.deep.equal(["Off", "Minimal", "Low", "Medium", "High"]);
      expect(select(el).value).to.equal("medium");
      expect(select(el).disabled).to.equal(false);
      // The store asked pi 1.6 for its levels; 0.73.1 refused the command it lacks.
      expect(agent.commands("get_available_thinking_levels")).to.have.length(1);
      const label = el.shadowRoot!.querySelector("label")!;
      expect(label.textContent).to.equal("Thinking");
      expect(label.control).to.equal(select(el));
    });

    it(`sends exactly {type: "set_thinking_level", level} on pi ${version}, and pi's level shows`, async () => {
      const { agent, el } = await mount(version);
      const from = agent.sent.length;
      await choose(el, "high");
      await waitUntil(() => agent.sent.length > from);
      expect(agent.sent[from]).to.deep.equal({ type: "set_thinking_level", level: "high" });
      await waitUntil(() => agent.sent.slice(from).some((c) => c.type === "get_state"), "the store asks pi again");
      await waitUntil(() => el.level === "high" && select(el).value === "high");
    });

    it(`offers only "off", disabled with the reason, for a model that does not reason (pi ${version})`, async () => {
      const { agent, el } = await mount(version);
      await agent.session.send("set_model", { provider: "scripted", modelId: "scripted-plain" });
      await waitUntil(() => el.levels.length === 1 && el.level === "off", "pi's levels for the plain model");
      await el.updateComplete;
      expect(values(el)).to.deep.equal(["off"]);
      expect(select(el).disabled).to.equal(true);
      const note = el.shadowRoot!.getElementById("note")!;
      expect(note.textContent).to.equal("This model does not reason.");
      expect(select(el).getAttribute("aria-describedby")).to.equal("note");
    });
  }

  it("while pi is not running (its exit reported) is disabled with the reason; back when it starts again", async () => {
    const { agent, el } = await mount("1.6.0");
    expect(select(el).disabled).to.equal(false);
    agent.send({ type: "pi-elements/agent_exit", code: 1, signal: null, stderrTail: [], restart: "on-request" });
    await waitUntil(() => select(el).disabled, "the exit reported");
    const note = el.shadowRoot!.querySelector('[part~="note"]')!;
    expect(note.textContent).to.equal("pi is not running.");
    expect(select(el).getAttribute("aria-describedby")).to.equal(note.id);
    agent.send({ type: "pi-elements/agent_start", pid: 9 });
    await waitUntil(() => !select(el).disabled, "pi started again");
    expect(el.shadowRoot!.querySelector('[part~="note"]')).to.equal(null);
  });

  it("shows pi's refusal beside the select, in words, and goes back to pi's level", async () => {
    const { agent, el } = await mount("0.73.1");
    agent.failing.set("set_thinking_level", "Thinking is not available");
    await choose(el, "low");
    await waitUntil(() => el.shadowRoot!.querySelector('[part~="error"]'), "the error");
    const error = el.shadowRoot!.querySelector('[part~="error"]')!;
    expect(error.getAttribute("role")).to.equal("alert");
    expect(error.textContent).to.equal("pi did not change the thinking level: Thinking is not available");
    expect(select(el).value).to.equal("medium");
    expect(select(el).getAttribute("aria-describedby")).to.equal("error");
  });

  it("speaks Japanese and Chinese, the value sent stays pi's", async () => {
    const { agent, el } = await mount("1.6.0", "ja");
    expect(el.shadowRoot!.querySelector("label")!.textContent).to.equal("思考");
    expect(labels(el)).to.deep.equal(["オフ", "最小", "低", "中", "高"]);
    await choose(el, "low");
    await waitUntil(() => agent.commands("set_thinking_level").length > 0);
    expect(agent.commands("set_thinking_level")).to.deep.equal([{ type: "set_thinking_level", level: "low" }]);
    const zh = (await mount("0.73.1", "zh")).el;
    expect(labels(zh)[0]).to.equal("关闭");
  });

  for (const theme of ["light", "dark"] as const) {
    it(`passes axe in the ${theme} theme, right to left too, and takes a screenshot`, async () => {
      const agent = await ControlsAgent.start("1.6.0");
      const box = await fixture<HTMLElement>(
        html`<div id="shot" style="padding: 8px; background: ${theme === "dark" ? "#1e1e24" : "#fff"}">
          <pi-thinking-level theme=${theme} .session=${agent.session}></pi-thinking-level>
          <pi-thinking-level theme=${theme} dir="rtl" lang="ja" .session=${agent.session}></pi-thinking-level>
        </div>`,
      );
      const [el, rtl] = [...box.querySelectorAll("pi-thinking-level")];
      await waitUntil(() => el!.levels.length > 1 && rtl!.levels.length > 1);
      await expect(box).to.be.accessible();
      const label = rtl!.shadowRoot!.querySelector("label")!.getBoundingClientRect();
      expect(label.left).to.be.above(select(rtl!).getBoundingClientRect().left);
      await executeServerCommand("screenshot", { name: `thinking-level-${theme}`, selector: "#shot" });
    });
  }
});
