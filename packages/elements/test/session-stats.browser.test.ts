import { expect, fixture, html, waitUntil as waitUntilOwc } from "@open-wc/testing";
import { executeServerCommand } from "@web/test-runner-commands";
import "../src/elements/session-stats/define.js";
import type { PiSessionStats } from "../src/elements/session-stats/session-stats.js";
import { formatTokens } from "../src/internal/format-tokens.js";
import { ControlsAgent, VERSIONS } from "./support/controls-agent.js";

/**
 * @open-wc's waitUntil with a 10 s limit (its default is 1 s): the store notifies once per animation frame, and with
 * three engines sharing two cores a frame can take longer than that.
 */
const waitUntil = (condition: () => unknown, message?: string) => waitUntilOwc(condition, message, { timeout: 10_000 });

const parts = (el: PiSessionStats) => [...el.shadowRoot!.querySelectorAll<HTMLElement>('[part~="part"]')];
const shown = (el: PiSessionStats) => parts(el).map((p) => p.querySelector('[aria-hidden="true"]')!.textContent);
const spoken = (el: PiSessionStats) => parts(el).map((p) => p.querySelector(".visually-hidden")!.textContent);
const context = (el: PiSessionStats) => el.shadowRoot!.querySelector<HTMLElement>('[part~="context"]');

async function mount(version: (typeof VERSIONS)[number], attrs: { lang?: string; theme?: string } = {}) {
  const agent = await ControlsAgent.start(version);
  const el = await fixture<PiSessionStats>(
    html`<pi-session-stats .session=${agent.session} lang=${attrs.lang ?? "en"} theme=${attrs.theme ?? "light"}></pi-session-stats>`,
  );
  await waitUntil(() => el.stats !== undefined, "pi's stats arrive");
  await el.updateComplete;
  return { agent, el };
}

/** Makes pi's next stats `stats` and ends a run: the store asks for them again (the refresh rule). */
async function nextStats(agent: ControlsAgent, el: PiSessionStats, stats: object) {
  const before = el.stats;
  agent.stats = stats;
  agent.endRun();
  await waitUntil(() => el.stats !== before, "the new stats");
  await el.updateComplete;
}

const stats = (over: Record<string, unknown> = {}, tokens: Record<string, number> = {}) => ({
  tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0, ...tokens },
  cost: 0,
  contextUsage: { tokens: 1000, contextWindow: 200000, percent: 0.5 },
  ...over,
});

describe("pi-session-stats", () => {
  it("formats token counts as pi's footer does", () => {
    expect([0, 999, 1000, 1234, 9999, 12345, 999499, 1234567, 12345678].map(formatTokens)).to.deep.equal([
      "0",
      "999",
      "1.0k",
      "1.2k",
      "10.0k",
      "12k",
      "999k",
      "1.2M",
      "12M",
    ]);
  });

  for (const version of VERSIONS) {
    it(`shows pi ${version}'s recorded get_session_stats as pi's footer: ↑in ↓out ctx%/window, zeros left out`, async () => {
      const { agent, el } = await mount(version);
      expect(agent.commands("get_session_stats")).to.have.length(1);
      // The recorded turn: 10 in, 5 out, no cache, no cost, 15 of 128000 tokens of context.
      expect(shown(el)).to.deep.equal(["↑10", "↓5", "0.0%/128k"]);
      expect(spoken(el)).to.deep.equal(["Input tokens: 10", "Output tokens: 5", "Context used: 0% of 128,000 tokens"]);
      expect(context(el)!.dataset["level"]).to.equal("normal");
      const list = el.shadowRoot!.querySelector('[part~="base"]')!;
      expect(list.getAttribute("aria-label")).to.equal("Session usage");
    });
  }

  it("shows cache reads and writes and the cost, with the exact numbers in words", async () => {
    const { agent, el } = await mount("1.6.0");
    await nextStats(
      agent,
      el,
      stats({ cost: 0.4512 }, { input: 50000, output: 10000, cacheRead: 40000, cacheWrite: 5000, total: 105000 }),
    );
    expect(shown(el)).to.deep.equal(["↑50k", "↓10k", "R40k", "W5.0k", "$0.451", "0.5%/200k"]);
    expect(spoken(el).slice(0, 5)).to.deep.equal([
      "Input tokens: 50,000",
      "Output tokens: 10,000",
      "Cache read tokens: 40,000",
      "Cache write tokens: 5,000",
      "Cost: $0.451",
    ]);
  });

  it("keeps pi's thresholds: 69 % plain, 71 % warning, 91 % error, said in words too", async () => {
    const { agent, el } = await mount("0.73.1");
    const at = async (percent: number) => {
      await nextStats(agent, el, stats({ contextUsage: { tokens: 1, contextWindow: 200000, percent } }));
      return context(el)!;
    };
    let part = await at(69);
    expect([part.dataset["level"], shown(el).at(-1)]).to.deep.equal(["normal", "69.0%/200k"]);
    const plainColor = getComputedStyle(part).color;
    part = await at(70);
    expect(part.dataset["level"]).to.equal("normal");
    part = await at(71);
    expect([part.dataset["level"], shown(el).at(-1)]).to.deep.equal(["warning", "⚠ 71.0%/200k"]);
    expect(spoken(el).at(-1)).to.equal("Context used: 71% of 200,000 tokens. Context nearly full");
    const warningColor = getComputedStyle(part).color;
    expect(warningColor).to.not.equal(plainColor);
    part = await at(91);
    expect([part.dataset["level"], shown(el).at(-1)]).to.deep.equal(["error", "⚠ 91.0%/200k"]);
    expect(spoken(el).at(-1)).to.equal("Context used: 91% of 200,000 tokens. Context almost full");
    expect(getComputedStyle(part).color).to.not.equal(warningColor);
  });

  it("shows ?/window right after a compaction, when pi does not know the context use", async () => {
    const { agent, el } = await mount("1.6.0");
    await nextStats(agent, el, stats({ contextUsage: { tokens: null, contextWindow: 200000, percent: null } }));
    expect(shown(el).at(-1)).to.equal("?/200k");
    expect(spoken(el).at(-1)).to.equal("Context used: unknown until pi's next answer, of 200,000 tokens");
  });

  it("speaks Japanese and Chinese", async () => {
    const ja = (await mount("1.6.0", { lang: "ja" })).el;
    expect(spoken(ja)[0]).to.equal("入力トークン: 10");
    expect(ja.shadowRoot!.querySelector('[part~="base"]')!.getAttribute("aria-label")).to.equal("セッションの使用量");
    const zh = (await mount("1.6.0", { lang: "zh-CN" })).el;
    expect(spoken(zh)[1]).to.equal("输出令牌: 5");
  });

  it("reads left to right inside a right-to-left page", async () => {
    const agent = await ControlsAgent.start("1.6.0");
    const box = await fixture<HTMLDivElement>(
      html`<div dir="rtl"><pi-session-stats .session=${agent.session}></pi-session-stats></div>`,
    );
    const el = box.querySelector("pi-session-stats")!;
    await waitUntil(() => el.stats !== undefined);
    await el.updateComplete;
    const [first, second] = parts(el);
    // The parts run from the right (rtl), each reads ↑10 left to right.
    expect(first!.getBoundingClientRect().left).to.be.above(second!.getBoundingClientRect().left);
    expect(getComputedStyle(first!).direction).to.equal("ltr");
  });

  for (const theme of ["light", "dark"] as const) {
    it(`passes axe in the ${theme} theme at every level and takes a screenshot`, async () => {
      const { agent, el } = await mount("1.6.0", { theme });
      el.id = "shot";
      el.style.inlineSize = "28rem";
      for (const percent of [42, 75, 95]) {
        await nextStats(
          agent,
          el,
          stats(
            { cost: 1.234, contextUsage: { tokens: 1, contextWindow: 200000, percent } },
            { input: 123456, output: 7890, cacheRead: 2000000, cacheWrite: 1500 },
          ),
        );
        await expect(el).to.be.accessible();
        await executeServerCommand("screenshot", { name: `session-stats-${theme}-${percent}`, selector: "#shot" });
      }
    });
  }
});
