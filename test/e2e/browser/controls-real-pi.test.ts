/**
 * The session controls end to end, part of the real-pi matrix that runs in Chromium (test/engines.mjs), issue #22
 * item 5: the real pi (0.73.1 and 1.6.0) behind the real bridge, the scripted model as pi's model with two more to
 * choose from (test/support/plugins/real-pi.mjs, `choices`), and README.md's complete page as written (its "embedding:
 * full index.html" block, on the no-build full bundle, dist/pi-elements.full.bundle.js) in an iframe. Every action is
 * a user's, by keyboard: a prompt typed and sent; another model picked in pi-model-picker, which pi's own `get_state`
 * (asked from a client of the test's, not the page's session) then reports; a thinking level picked, which pi reports
 * too and sends the next turn's request with (the scripted model's requests); New session and Fork… in
 * pi-session-actions; a reload of the page mid-answer. What is asserted is what a reader sees: the transcript, the
 * tool card, the stats, the prompt's text; and axe-core, run in the page's document, finds nothing with a
 * conversation on it in either theme. One pi per version for the whole file (10 to 15 s an engine when the machine is
 * otherwise idle).
 *
 * What each pi version could and could not do is the same here, but for the thinking levels offered: pi 1.6.0 says
 * (get_available_thinking_levels), pi 0.73.1 cannot, and the element applies 0.73.1's own rule to the model.
 */
import { expect, waitUntil } from "@open-wc/testing";
import { executeServerCommand, sendKeys } from "@web/test-runner-commands";
import { deepAll, deepText } from "../../support/deep-dom.js";
import { deepActive, Frame, found, WAIT } from "../../support/readme-page.js";

const COMMAND = "echo controls > c.txt && cat c.txt";
const FIRST_ANSWER = "The file says controls.";
const SECOND_ANSWER = "A second answer, to fork before.";
/** A slow answer for the reload: about 90 chunks of 8 characters, 30 ms apart (under 3 s). */
const SLOW = Array.from({ length: 24 }, (_, i) => `Sentence ${i + 1} of a slow answer.`).join(" ");

/** What pi itself reports, asked from the test's own client of the bridge. */
async function piState(): Promise<{ model: { provider: string; id: string }; thinkingLevel: string }> {
  const answer = await executeServerCommand<{ data: never }, { command: { type: string } }>("real-pi:rpc", {
    command: { type: "get_state" },
  });
  return answer.data;
}

/** Both pi versions under test (test/support/real-pi.ts). */
for (const version of ["0.73.1", "1.6.0"]) {
  describe(`pi ${version} → bridge → README's complete page (full bundle): the session controls`, function () {
    this.timeout(60_000);
    let frame: Frame;

    before(async function () {
      this.timeout(90_000);
      const url = await executeServerCommand<string, { version: string; script: unknown[]; choices: boolean }>(
        "real-pi:start",
        { version, script: [], choices: true },
      );
      frame = new Frame(new URL(url, location.href).searchParams.get("bridge")!);
      await frame.load();
    });

    after(async () => {
      frame?.iframe.remove();
      await executeServerCommand("real-pi:stop");
    });

    it("a prompt streams an answer after a bash run pi really makes; the stats grow after the turn", async () => {
      expect(frame.articles()).to.have.length(0);
      const before = frame.inputTokens();
      await executeServerCommand("real-pi:script", {
        script: [
          { toolCalls: [{ name: "bash", arguments: { command: COMMAND } }], delayMs: 10 },
          { text: FIRST_ANSWER, delayMs: 20, usage: { prompt_tokens: 120, completion_tokens: 8 } },
        ],
      });
      await frame.send("First question");
      await frame.settled(FIRST_ANSWER);
      const card = deepAll(frame.el("pi-transcript").shadowRoot!, "pi-tool-card")[0];
      expect(card, "a tool card").to.exist;
      await waitUntil(() => deepText(card!).includes("controls"), "the bash output in the card", WAIT);
      expect(await executeServerCommand("real-pi:file", { path: "c.txt" })).to.equal("controls\n");
      await waitUntil(() => frame.inputTokens() > before, "the stats to count the turn", WAIT).catch((error: Error) => {
        throw new Error(`${error.message}; stats: ${deepText(frame.el("pi-session-stats"))}`);
      });
    });

    it("another model picked by keyboard is the one pi reports; a plain model leaves no thinking to choose", async () => {
      expect((await piState()).model.id).to.equal("scripted-model");
      const pick = async (filter: string, name: string) => {
        await frame.focus(frame.part("pi-model-picker", "[part~=trigger]")!);
        await sendKeys({ press: "Enter" });
        await waitUntil(
          () => deepActive(frame.doc) === frame.part("pi-model-picker", "[part~=filter]"),
          "the filter",
          WAIT,
        );
        await sendKeys({ type: filter });
        await sendKeys({ press: "Enter" });
        // The button shows the model asked for at once, busy until pi took it.
        await waitUntil(
          () => frame.modelName().includes(name) && !frame.part("pi-model-picker", "[part~=trigger][aria-busy]"),
          `the picker to show ${name}, taken`,
          WAIT,
        );
      };

      await pick("plain", "Scripted plain model");
      const plain = await piState();
      expect([plain.model.provider, plain.model.id]).to.deep.equal(["scripted", "scripted-plain"]);
      expect(plain.thinkingLevel).to.equal("off");
      const select = () => frame.part<HTMLSelectElement>("pi-thinking-level", "select")!;
      await waitUntil(() => select().disabled, "no thinking level to choose for a plain model", WAIT);

      await pick("second provider", "Second provider model");
      const second = await piState();
      expect([second.model.provider, second.model.id]).to.deep.equal(["scripted-b", "b-model"]);
      await waitUntil(() => !select().disabled, "thinking levels for a reasoning model", WAIT);
    });

    it("a thinking level picked by keyboard reaches pi", async () => {
      const select = () => frame.part<HTMLSelectElement>("pi-thinking-level", "select")!;
      await waitUntil(() => !select().disabled, "the levels", WAIT);
      const offered = () => [...select().options].map((o) => o.value).join(" ");
      await waitUntil(() => offered() === "off minimal low medium high", "the reasoning model's levels", WAIT).catch(
        (error: Error) => {
          throw new Error(`${error.message}; offered: ${offered()}`);
        },
      );
      await frame.focus(select());
      // The last level, as a closed select takes End in every engine.
      await sendKeys({ press: "End" });
      await waitUntil(async () => (await piState()).thinkingLevel === "high", "pi to report high", WAIT);
      expect(select().value).to.equal("high");
    });

    it("the next turn goes to the model and level picked; Fork… from an earlier message takes the transcript back to before it and puts its text in the prompt", async () => {
      await executeServerCommand("real-pi:script", { script: [{ text: SECOND_ANSWER }] });
      const before = frame.inputTokens();
      await frame.send("Second question");
      await frame.settled(SECOND_ANSWER);
      await waitUntil(() => frame.inputTokens() > before, "the stats to grow again", WAIT);
      // The turn after the choices: pi asked the model picked, at the level picked (openai-completions'
      // reasoning_effort); the first turn asked pi's first model at its default level.
      const requests = await executeServerCommand<Array<{ model: string; reasoning_effort?: string }>, undefined>(
        "real-pi:requests",
      );
      expect(requests.map((r) => `${r.model} ${r.reasoning_effort}`)).to.deep.equal([
        "scripted-model medium",
        "scripted-model medium",
        "b-model high",
      ]);
      expect(frame.articles()).to.have.length(5);

      await frame.focus(frame.part("pi-session-actions", "[part~=fork-button]")!);
      await sendKeys({ press: "Enter" });
      const option = await found(
        () =>
          [
            ...(frame.el("pi-session-actions").shadowRoot?.querySelectorAll<HTMLElement>("[part~=fork-option]") ?? []),
          ].find((b) => b.textContent?.trim() === "Second question"),
        "the fork dialog to list the second question",
      );
      expect(
        [...frame.el("pi-session-actions").shadowRoot!.querySelectorAll("[part~=fork-option]")].map((b) =>
          b.textContent?.trim(),
        ),
      ).to.deep.equal(["First question", "Second question"]);
      await frame.focus(option);
      await sendKeys({ press: "Enter" });

      // The first turn only, as it was; the second question back in the prompt, to edit and send again.
      await waitUntil(() => frame.articles().length === 3, "the transcript before the second question", WAIT).catch(
        (error: Error) => {
          throw new Error(`${error.message}; articles: ${JSON.stringify(frame.texts())}`);
        },
      );
      const texts = frame.texts();
      expect(texts[0]).to.contain("First question");
      expect(texts[2]).to.contain(FIRST_ANSWER);
      expect(texts.some((t) => t.includes("Second"))).to.equal(false);
      await waitUntil(
        () => frame.el<HTMLElement & { value: string }>("pi-prompt").value === "Second question",
        "the prompt to hold the forked message",
        WAIT,
      );

      // A fork makes pi (both versions) start a new runtime, which takes the model of its command line's --model
      // again (not the one picked since) and keeps the thinking level picked: the page shows what pi reports.
      const forked = await piState();
      expect([forked.model.id, forked.thinkingLevel]).to.deep.equal(["scripted-model", "high"]);
      await waitUntil(() => frame.modelName().includes("Scripted test model"), "the picker to show pi's model", WAIT);
      expect(frame.part<HTMLSelectElement>("pi-thinking-level", "select")!.value).to.equal("high");
      // For a person to look at: README's page after a turn, in both themes (test-results/screenshots/<engine>/).
      frame.iframe.id = "controls-shot";
      const root = frame.doc.documentElement;
      for (const theme of ["light", "dark"]) {
        root.style.colorScheme = theme;
        root.style.setProperty("--pi-color-scheme", theme);
        await new Promise((resolve) => frame.window.requestAnimationFrame(resolve));
        await executeServerCommand("screenshot", {
          name: `controls-real-pi-${version}-${theme}`,
          selector: "#controls-shot",
        });
      }
      root.removeAttribute("style");
    });

    it("axe finds nothing on the page with a conversation on it, in light and dark", async function () {
      this.timeout(90_000);
      // axe-core runs inside the page's own document, loaded there as a classic script.
      const script = frame.doc.createElement("script");
      script.src = "/node_modules/axe-core/axe.min.js";
      const loaded = new Promise((resolve, reject) => {
        script.addEventListener("load", resolve);
        script.addEventListener("error", reject);
      });
      frame.doc.head.append(script);
      await loaded;
      const { axe } = frame.window as unknown as {
        axe: { run(context: Document): Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }> };
      };
      const root = frame.doc.documentElement;
      for (const theme of ["light", "dark"]) {
        root.style.colorScheme = theme;
        root.style.setProperty("--pi-color-scheme", theme);
        const { violations } = await axe.run(frame.doc);
        expect(
          violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`),
          theme,
        ).to.deep.equal([]);
      }
      root.removeAttribute("style");
    });

    it("New session, confirmed by keyboard, empties the transcript", async () => {
      const prompt = frame.el<HTMLElement & { value: string }>("pi-prompt");
      prompt.value = "";
      await frame.focus(frame.part("pi-session-actions", "[part~=new-button]")!);
      await sendKeys({ press: "Enter" });
      // The confirmation opens on Cancel, the safe choice; Tab reaches the confirmation, Enter confirms.
      await waitUntil(
        () => frame.el("pi-session-actions").shadowRoot?.querySelector("dialog[open]"),
        "the confirmation",
        WAIT,
      );
      const actions = frame.el("pi-session-actions").shadowRoot!;
      await waitUntil(() => actions.activeElement?.textContent === "Cancel", "Cancel to have focus", WAIT);
      await sendKeys({ press: "Tab" });
      const confirm = actions.querySelector<HTMLElement>("dialog button.danger")!;
      await waitUntil(() => actions.activeElement === confirm, "the confirmation to have focus", WAIT);
      await sendKeys({ press: "Enter" });
      await waitUntil(() => frame.articles().length === 0, "an empty transcript", WAIT).catch((error: Error) => {
        throw new Error(`${error.message}; articles: ${JSON.stringify(frame.texts())}`);
      });
      expect(frame.inputTokens()).to.equal(0);
    });

    it("the page reloaded mid-answer shows the text so far, then the whole answer once", async () => {
      await executeServerCommand("real-pi:script", { script: [{ text: SLOW, delayMs: 30 }] });
      await frame.reloadMidAnswer("Answer slowly", SLOW);
      expect(frame.texts()).to.have.length(2);
    });

    it("the page threw nothing", () => {
      expect(frame.errors).to.deep.equal([]);
    });
  });
}
