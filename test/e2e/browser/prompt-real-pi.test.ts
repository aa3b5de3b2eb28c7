/**
 * pi-prompt with a running agent end to end (issue #22 items 1 and 5), part of the real-pi matrix that runs in
 * Chromium (test/engines.mjs):
 * the real pi (0.73.1 and 1.6.0) behind the real bridge, the scripted model as pi's model, and the no-build full
 * bundle on a page of markup (`<pi-session url=…><pi-transcript></pi-transcript><pi-prompt></pi-prompt></pi-session>`).
 * While a slow answer streams, a steering message (Enter) and a follow-up (Alt+Enter) are typed: both show in the
 * prompt's list of pi's queue, and land in the transcript in pi's order (the answer, the steer and its answer, the
 * follow-up and its answer). Escape while a follow-up is queued stops the turn: on 1.6.0 the queued text comes back
 * into the box and pi runs nothing more; on 0.73.1, which has no `clear_queue`, the message stays in pi's queue (the
 * prompt says so) and pi delivers it with the next message sent. On 1.6.0, Take back on a queued follow-up puts it
 * into the box, and pi runs the other one, queued again in its place.
 */
import { expect, waitUntil } from "@open-wc/testing";
import { executeServerCommand, sendKeys, sendMouse } from "@web/test-runner-commands";
import { deepText } from "../../support/deep-dom.js";
import { pressCombo } from "../../support/engine.js";
import { untilCanSend } from "../../support/readme-page.js";

/** A bound against a hang, not a timed assertion: three engines share two cores with two pis. */
const WAIT = { timeout: 25_000, interval: 20 };
const FULL_BUNDLE = "/packages/elements/dist/pi-elements.full.bundle.js";
/** A slow answer: about 110 chunks of 8 characters, 50 ms apart (about 5.5 s), time to type while it streams. */
const SLOW = Array.from({ length: 26 }, (_, i) => `Sentence ${i + 1} of a slow answer.`).join(" ");

const errors: string[] = [];
addEventListener("error", (event) => errors.push(String(event.message)));
addEventListener("unhandledrejection", (event) => errors.push(String(event.reason)));

interface Page {
  host: HTMLElement;
  transcript: HTMLElement;
  prompt: HTMLElement & { value: string };
}

function mount(bridgeUrl: string): Page {
  const host = document.createElement("div");
  host.style.cssText = "block-size: 30rem; inline-size: 40rem; display: flex; flex-direction: column";
  const session = document.createElement("pi-session");
  session.setAttribute("url", bridgeUrl);
  const transcript = document.createElement("pi-transcript");
  transcript.style.cssText = "flex: 1; min-block-size: 0";
  const prompt = document.createElement("pi-prompt") as Page["prompt"];
  session.append(transcript, prompt);
  host.append(session);
  document.body.append(host);
  return { host, transcript, prompt };
}

const articles = (page: Page) => [
  ...page.transcript.shadowRoot!.querySelectorAll<HTMLElement>("[part~=feed] > article"),
];
/** Each article as "You: text" or "pi: text" (its first 30 characters), in the transcript's order. */
const turns = (page: Page) =>
  articles(page).map((article) => {
    const name = article.querySelector(`#${CSS.escape(article.getAttribute("aria-labelledby") ?? "")}`);
    const label = (name?.textContent ?? "").trim();
    const text = [...article.querySelectorAll("pi-markdown")].map(deepText).join("").trim();
    // The body's text: the header (author, time, copy button) left out.
    const header = deepText(article.querySelector("header") ?? article.ownerDocument.createElement("p"));
    return `${label}: ${(text || deepText(article).replace(header, "").trim()).slice(0, 30)}`;
  });
const streaming = (page: Page) =>
  page.transcript.shadowRoot!.querySelector("[part~=feed] > article[aria-busy=true]") !== null;
const field = (page: Page) => page.prompt.shadowRoot!.querySelector("textarea")!;
const part = (page: Page, name: string) => page.prompt.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
const queued = (page: Page) =>
  [...page.prompt.shadowRoot!.querySelectorAll('[part~="queued"]')].map((item) =>
    deepText(item).replace(/\s+/g, " ").trim(),
  );

async function focusPrompt(page: Page): Promise<void> {
  await waitUntil(() => page.prompt.shadowRoot?.querySelector("textarea"), "the prompt to render", WAIT);
  await untilCanSend(page.prompt, WAIT);
  const area = field(page);
  area.scrollIntoView({ block: "center" });
  const r = area.getBoundingClientRect();
  await sendMouse({ type: "click", position: [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)] });
  await waitUntil(() => page.prompt.shadowRoot!.activeElement === area, "the prompt to have focus", WAIT);
}

/** Waits for `what` with the transcript in the message when it does not come, and whether the page still gets frames. */
async function until(page: Page, test: () => boolean, what: string): Promise<void> {
  await waitUntil(test, what, WAIT).catch(async (error: Error) => {
    const frame = await Promise.race([
      new Promise((resolve) => requestAnimationFrame(() => resolve("a frame within 1 s"))),
      new Promise((resolve) => setTimeout(() => resolve("no frame within 1 s"), 1000)),
    ]);
    throw new Error(
      `${error.message}; transcript ${JSON.stringify(turns(page))}, queue ${JSON.stringify(queued(page))}, ` +
        `box ${JSON.stringify(field(page).value)}, status ${JSON.stringify(part(page, "status")?.textContent ?? "")}, ` +
        `prompt streaming ${(page.prompt as HTMLElement & { streaming?: boolean }).streaming}, send error ${JSON.stringify(part(page, "error")?.textContent ?? "")}; ` +
        `page ${document.visibilityState}, focus ${document.hasFocus()}, ${frame}`,
    );
  });
}

before(async () => {
  await import(/* @vite-ignore */ FULL_BUNDLE);
});

for (const version of ["0.73.1", "1.6.0"]) {
  describe(`pi ${version} → bridge → pi-prompt while pi streams (full bundle)`, function () {
    this.timeout(90_000);
    let page: Page;

    before(async function () {
      this.timeout(60_000);
      const url = await executeServerCommand<string, { version: string; script: unknown[] }>("real-pi:start", {
        version,
        script: [],
      });
      page = mount(new URL(url, location.href).searchParams.get("bridge")!);
    });

    after(async () => {
      page.host.remove();
      await executeServerCommand("real-pi:stop");
    });

    it("a steer (Enter) and a follow-up (Alt+Enter) typed while pi streams show in pi's queue, then land in pi's order", async () => {
      await executeServerCommand("real-pi:script", {
        script: [{ text: SLOW, delayMs: 50 }, { text: "Steered answer." }, { text: "Follow-up answer." }],
      });
      await focusPrompt(page);
      await sendKeys({ type: "Start slowly" });
      await sendKeys({ press: "Enter" });
      await until(page, () => streaming(page), "the answer to stream");
      await until(page, () => part(page, "status")?.textContent === "Working…", "the prompt to say pi works");
      await sendKeys({ type: "Go left" });
      await sendKeys({ press: "Enter" });
      // The box clears once pi has taken the steer (its answer to the command).
      await until(page, () => field(page).value === "", "pi to take the steer");
      await sendKeys({ type: "Then tidy" });
      await pressCombo("Alt+Enter");
      await until(
        page,
        () =>
          JSON.stringify(queued(page)) ===
          JSON.stringify(
            version === "1.6.0"
              ? ["Steer Go left Take back", "Follow up Then tidy Take back"]
              : ["Steer Go left", "Follow up Then tidy"],
          ),
        "both messages in pi's queue",
      );
      if (version === "0.73.1") expect(part(page, "queue-note")).to.exist;
      // For a person to look at: the prompt with pi's queue while pi works, in both themes.
      page.prompt.id = "prompt-shot";
      for (const theme of ["light", "dark"]) {
        page.prompt.setAttribute("theme", theme);
        await new Promise((resolve) => requestAnimationFrame(resolve));
        await executeServerCommand("screenshot", {
          name: `prompt-real-pi-${version}-${theme}`,
          selector: "#prompt-shot",
        });
      }
      page.prompt.removeAttribute("theme");
      page.prompt.removeAttribute("id");

      await until(
        page,
        () => !streaming(page) && turns(page).some((turn) => turn === "pi: Follow-up answer."),
        "the follow-up's answer",
      );
      expect(turns(page)).to.deep.equal([
        "You: Start slowly",
        `pi: ${SLOW.slice(0, 30)}`,
        "You: Go left",
        "pi: Steered answer.",
        "You: Then tidy",
        "pi: Follow-up answer.",
      ]);
      expect(queued(page)).to.deep.equal([]);
      await until(page, () => (part(page, "status")?.textContent ?? "") === "", "the status to clear");
    });

    it("Escape stops the turn; a queued follow-up comes back into the box on 1.6.0 and stays queued on 0.73.1", async () => {
      await executeServerCommand("real-pi:script", {
        script: [{ text: SLOW, delayMs: 50 }, { text: "Next answer." }, { text: "Queued answer." }],
      });
      const before = articles(page).length;
      await focusPrompt(page);
      await sendKeys({ type: "Slow again" });
      await sendKeys({ press: "Enter" });
      await until(page, () => streaming(page), "the answer to stream");
      await sendKeys({ type: "Later" });
      await pressCombo("Alt+Enter");
      await until(page, () => queued(page).some((item) => item.startsWith("Follow up Later")), "the follow-up queued");
      await until(page, () => field(page).value === "", "the box to clear");
      await sendKeys({ press: "Escape" });
      await until(page, () => !streaming(page), "the turn to stop");
      // pi takes a new prompt once it has settled (1.x's agent_settled comes after agent_end): the prompt says so.
      await until(page, () => (part(page, "status")?.textContent ?? "") === "", "the status to clear");
      const stopped = turns(page).slice(before);
      expect(stopped[0]).to.equal("You: Slow again");
      // The answer stopped part way.
      expect(stopped.join(" ")).to.not.contain("Sentence 26");
      if (version === "1.6.0") {
        await until(page, () => field(page).value === "Later", "the queued text back in the box");
        expect(queued(page)).to.deep.equal([]);
        expect(turns(page).slice(before)).to.not.include("You: Later");
      } else {
        expect(field(page).value).to.equal("");
        expect(queued(page)).to.deep.equal(["Follow up Later"]);
        expect(part(page, "queue-note")!.textContent).to.contain("cannot take queued messages back");
        // pi keeps it: it goes with the next message.
        await sendKeys({ type: "Next" });
        await sendKeys({ press: "Enter" });
        await until(page, () => !streaming(page) && turns(page).includes("pi: Queued answer."), "both answers");
        expect(turns(page).slice(before + 2)).to.deep.equal([
          "You: Next",
          "pi: Next answer.",
          "You: Later",
          "pi: Queued answer.",
        ]);
      }
    });

    if (version === "1.6.0") {
      it("Take back puts a queued follow-up into the box; pi runs the other, still queued in its place", async () => {
        await executeServerCommand("real-pi:script", {
          script: [{ text: SLOW, delayMs: 50 }, { text: "Second answered." }],
        });
        page.prompt.value = "";
        const before = articles(page).length;
        await focusPrompt(page);
        await sendKeys({ type: "Slow once more" });
        await sendKeys({ press: "Enter" });
        await until(page, () => streaming(page), "the answer to stream");
        for (const text of ["First later", "Second later"]) {
          await until(page, () => field(page).value === "", "the box to clear");
          await sendKeys({ type: text });
          await pressCombo("Alt+Enter");
        }
        await until(page, () => queued(page).length === 2, "both follow-ups queued");
        page.prompt.shadowRoot!.querySelector<HTMLButtonElement>('[aria-label="Take back: First later"]')!.click();
        await until(page, () => field(page).value === "First later", "the message back in the box");
        await until(
          page,
          () => JSON.stringify(queued(page)) === JSON.stringify(["Follow up Second later Take back"]),
          "the other still queued",
        );
        await until(
          page,
          () => !streaming(page) && turns(page).includes("pi: Second answered."),
          "the other follow-up's answer",
        );
        expect(turns(page).slice(before)).to.deep.equal([
          "You: Slow once more",
          `pi: ${SLOW.slice(0, 30)}`,
          "You: Second later",
          "pi: Second answered.",
        ]);
      });
    }

    it("the page threw nothing", () => {
      expect(errors).to.deep.equal([]);
    });
  });
}
