/**
 * The end-to-end smoke for the engines that do not run the whole real-pi matrix (Firefox and WebKit; test/engines.mjs,
 * docs/testing.md): for each pi version under test (0.73.1 and 1.6.0), behind the real bridge, README.md's complete
 * page (the full bundle) as a user drives it with real keys: a prompt typed and its answer streamed, an extension's
 * dialog answered by keyboard (what pi received read back from the extension's own report), and the page reloaded in
 * the middle of an answer. Chromium runs the matrix these come from (real-pi, prompt-real-pi, controls-real-pi,
 * transcript-real-pi).
 */
import { expect, waitUntil } from "@open-wc/testing";
import { executeServerCommand, sendKeys } from "@web/test-runner-commands";
import { deepAll, deepText } from "../../support/deep-dom.js";
import { deepActive, Frame, WAIT } from "../../support/readme-page.js";

const ANSWER = "A streamed answer, **in Markdown**, from the scripted model.";
/** A slow answer for the reload: about 90 chunks of 8 characters, 30 ms apart (under 3 s). */
const SLOW = Array.from({ length: 24 }, (_, i) => `Sentence ${i + 1} of a slow answer.`).join(" ");

for (const version of ["0.73.1", "1.6.0"]) {
  describe(`pi ${version} → bridge → README's complete page: the smoke`, function () {
    this.timeout(60_000);
    let frame: Frame;

    before(async function () {
      this.timeout(90_000);
      const url = await executeServerCommand<string, { version: string; script: unknown[] }>("real-pi:start", {
        version,
        script: [],
      });
      frame = new Frame(new URL(url, location.href).searchParams.get("bridge")!);
      await frame.load();
    });

    after(async () => {
      frame?.iframe.remove();
      await executeServerCommand("real-pi:stop");
    });

    it("a prompt typed and sent with Enter streams pi's answer into the transcript", async () => {
      await executeServerCommand("real-pi:script", { script: [{ text: ANSWER, delayMs: 20 }] });
      await frame.send("Say something");
      await frame.settled("A streamed answer, in Markdown, from the scripted model.");
      const strong = deepAll(frame.el("pi-transcript").shadowRoot!, "strong").map((el) => el.textContent);
      expect(strong).to.include("in Markdown");
      expect(frame.texts()[0]).to.contain("Say something");
    });

    it("an extension's select answered by keyboard (ArrowDown, Enter) reaches pi", async () => {
      await frame.send("/ui-select");
      const select = () => deepAll(frame.doc, "pi-select")[0] as (HTMLElement & { arming: boolean }) | undefined;
      const inSelect = () => {
        for (let node: Node | null | undefined = deepActive(frame.doc); node; ) {
          if (node.nodeType === Node.ELEMENT_NODE && (node as Element).localName === "pi-select") return true;
          node = node.parentNode ?? (node as ShadowRoot).host;
        }
        return false;
      };
      await waitUntil(select, "the select to open", WAIT);
      await waitUntil(inSelect, "focus inside the select", WAIT);
      await waitUntil(() => !select()!.arming, "the select to arm", WAIT);
      await sendKeys({ press: "ArrowDown" });
      await sendKeys({ press: "Enter" });
      const reports = () =>
        deepAll(frame.el("pi-notifications").shadowRoot!, "[part~=body]")
          .map((body) => deepText(body).trim())
          .filter((text) => text.startsWith("ui-select ->"));
      await waitUntil(() => reports().length > 0, 'pi to report "ui-select -> …"', WAIT).catch((error: Error) => {
        throw new Error(`${error.message}; the page says: ${deepText(frame.doc.body).replace(/\s+/g, " ")}`);
      });
      expect(reports()).to.deep.equal(['ui-select -> "Beta"']);
      await waitUntil(() => !select(), "the select to close", WAIT);
    });

    it("the page reloaded mid-answer shows the text so far, then the whole answer once", async () => {
      await executeServerCommand("real-pi:script", { script: [{ text: SLOW, delayMs: 30 }] });
      await frame.reloadMidAnswer("Answer slowly", SLOW);
    });

    it("the page threw nothing", () => {
      expect(frame.errors).to.deep.equal([]);
    });
  });
}
