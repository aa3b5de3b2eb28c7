/**
 * The conversation end to end, part of the real-pi matrix that runs in Chromium (test/engines.mjs), issue #21 item
 * 9: the real pi (0.73.1 and 1.6.0) behind the real bridge, the scripted model as pi's model
 * (test/support/plugins/real-pi.mjs), and the no-build full bundle (dist/pi-elements.full.bundle.js, its lazy
 * chunks beside it) on a page of markup: `<pi-session url=…><pi-transcript></pi-transcript><pi-prompt></pi-prompt>
 * </pi-session>`. The prompt is typed and sent with Enter; what is asserted is what a reader sees: the answer
 * streaming as Markdown with a highlighted code block, the thinking collapsed once it is done, the bash card with the
 * output of the command pi really ran (it wrote a file in pi's throwaway cwd), a hostile answer's markup and
 * `javascript:` link as text, and a page that connects mid-answer showing the text so far, then the answer once.
 */
import { expect, waitUntil } from "@open-wc/testing";
import { executeServerCommand, sendKeys, sendMouse } from "@web/test-runner-commands";
import { deepAll, deepText } from "../../support/deep-dom.js";
import { untilCanSend } from "../../support/readme-page.js";

/** A bound against a hang, not a timed assertion: three engines share two cores with two pis. */
const WAIT = { timeout: 25_000, interval: 20 };
/** The bundle as built, loaded at run time so its lazy chunks load from dist/chunks/ as on a real page. */
const FULL_BUNDLE = "/packages/elements/dist/pi-elements.full.bundle.js";

const THINKING = "The user wants a note. I will write it with bash first, then explain.";
const COMMAND = "printf 'written by pi\\n' > note.txt && wc -c note.txt";
/** The answer after the tool ran: Markdown, a code block, and markup a hostile model might send. */
const ANSWER = [
  "The note is **written**; here is how to read it:",
  "",
  "```ts",
  'const note: string = await readFile("note.txt", "utf8");',
  "```",
  "",
  'Raw <img src=x onerror="window.injected=1"> stays text, and so does [this link](javascript:window.injected=2).',
].join("\n");
/** A slow answer for the page that joins mid-stream: about 90 chunks of 8 characters, 30 ms apart (under 3 s). */
const SLOW = Array.from({ length: 24 }, (_, i) => `Sentence ${i + 1} of a slow answer.`).join(" ");

const errors: string[] = [];
addEventListener("error", (event) => errors.push(String(event.message)));
addEventListener("unhandledrejection", (event) => errors.push(String(event.reason)));

/** One page: a pi-session with a transcript (and a prompt, for the page that types). */
interface Page {
  host: HTMLElement;
  transcript: HTMLElement;
}

function mount(bridgeUrl: string, withPrompt: boolean): Page {
  const host = document.createElement("div");
  host.style.cssText = "block-size: 24rem; inline-size: 40rem; display: flex; flex-direction: column";
  const session = document.createElement("pi-session");
  session.setAttribute("url", bridgeUrl);
  const transcript = document.createElement("pi-transcript");
  transcript.style.cssText = "flex: 1; min-block-size: 0";
  session.append(transcript);
  if (withPrompt) session.append(document.createElement("pi-prompt"));
  host.append(session);
  document.body.append(host);
  return { host, transcript };
}

const articles = (page: Page) => [
  ...page.transcript.shadowRoot!.querySelectorAll<HTMLElement>("[part~=feed] > article"),
];
/** An article's name (its labelling heading, "You" or "pi"). */
const nameOf = (article: HTMLElement) =>
  (article.querySelector(`#${CSS.escape(article.getAttribute("aria-labelledby") ?? "")}`)?.textContent ?? "").trim();
const names = (page: Page) => articles(page).map(nameOf);
/** The Markdown text a reader sees in an article (its pi-markdown, not its heading or buttons). */
const answerText = (article: Element) => deepAll(article, "pi-markdown").map(deepText).join("");
const texts = (page: Page) => articles(page).map((article) => deepText(article).trim());
const streamingArticle = (page: Page) =>
  page.transcript.shadowRoot!.querySelector<HTMLElement>("[part~=feed] > article[aria-busy=true]");

/** Types `text` into the page's pi-prompt and sends it with Enter, as a user would. */
async function send(page: Page, text: string): Promise<void> {
  const prompt = page.host.querySelector("pi-prompt")!;
  await waitUntil(() => prompt.shadowRoot?.querySelector("textarea"), "the prompt to render", WAIT);
  await untilCanSend(prompt, WAIT);
  const area = prompt.shadowRoot!.querySelector("textarea")!;
  area.scrollIntoView({ block: "center" });
  const r = area.getBoundingClientRect();
  await sendMouse({ type: "click", position: [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)] });
  await waitUntil(() => prompt.shadowRoot!.activeElement === area, "the prompt to have focus", WAIT);
  await sendKeys({ type: text });
  await sendKeys({ press: "Enter" });
}

/** Waits until the turn is over in `page`: no article streaming and the last article answers with `text`. */
async function settled(page: Page, text: string): Promise<void> {
  await waitUntil(
    () => !streamingArticle(page) && articles(page).some((article) => answerText(article).includes(text)),
    "the answer to be complete",
    WAIT,
  ).catch((error: Error) => {
    throw new Error(`${error.message}; articles: ${JSON.stringify(texts(page))}`);
  });
}

before(async () => {
  await import(/* @vite-ignore */ FULL_BUNDLE);
});

/** Both pi versions under test (test/support/real-pi.ts). */
for (const version of ["0.73.1", "1.6.0"]) {
  describe(`pi ${version} → bridge → pi-transcript (full bundle)`, function () {
    this.timeout(60_000);
    let bridgeUrl: string;
    let page: Page;
    const pages: Page[] = [];

    before(async function () {
      this.timeout(60_000);
      const url = await executeServerCommand<string, { version: string; script: unknown[] }>("real-pi:start", {
        version,
        script: [],
      });
      bridgeUrl = new URL(url, location.href).searchParams.get("bridge")!;
      page = mount(bridgeUrl, true);
      pages.push(page);
    });

    after(async () => {
      for (const each of pages.splice(0)) each.host.remove();
      await executeServerCommand("real-pi:stop");
    });

    it("streams thinking, a bash run pi really makes, and a Markdown answer with highlighted code; markup stays text", async () => {
      await executeServerCommand("real-pi:script", {
        script: [
          { thinking: THINKING, toolCalls: [{ name: "bash", arguments: { command: COMMAND } }], delayMs: 10 },
          { text: ANSWER, delayMs: 50 },
        ],
      });
      await send(page, "Write a note");

      // While it streams: the answer's article is busy and shows a beginning of the answer, not all of it yet (the
      // stream takes about 1.5 s; only the text before the code block, which may wait for the highlighter, is
      // compared).
      const seen: string[] = [];
      await waitUntil(
        () => {
          const busy = streamingArticle(page);
          // The answer's article (the one before it streams the thinking and the tool call).
          const text = busy && !busy.querySelector("pi-tool-card") ? answerText(busy) : "";
          if (text !== "") seen.push(text);
          return seen.some((t) => !t.includes("this link."));
        },
        "the answer to stream",
        WAIT,
      ).catch((error: Error) => {
        throw new Error(`${error.message}; seen ${JSON.stringify(seen)}, articles ${JSON.stringify(texts(page))}`);
      });
      await settled(page, "stays text");
      const intro = "The note is written; here is how to read it:";
      for (const text of seen.map((t) => t.replace(/\s+/g, " ").trim())) {
        expect(intro.startsWith(text) || text.startsWith(intro), `streamed ${JSON.stringify(text)}`).to.equal(true);
      }

      // One article each: the prompt, pi's thinking and tool call, pi's answer.
      expect(names(page)).to.deep.equal(["You", "pi", "pi"]);
      const [user, working, answer] = articles(page) as [HTMLElement, HTMLElement, HTMLElement];
      expect(deepText(user)).to.contain("Write a note");

      // The thinking is collapsed once its message is done; its text is still there to open.
      const thinking = working.querySelector<HTMLDetailsElement>("details[part~=thinking]")!;
      expect(thinking, "a thinking block").to.exist;
      expect(thinking.open, "the thinking is collapsed after the stream").to.equal(false);
      expect(deepText(thinking)).to.contain(THINKING);

      // The bash card shows the command and what pi's run of it printed; the file is really there in pi's cwd.
      const card = working.querySelector("pi-tool-card")!;
      expect(card, "a tool card").to.exist;
      const label = card.shadowRoot!.querySelector("[part~=base]")!.getAttribute("aria-label");
      expect(label).to.equal(`bash: ${COMMAND}`);
      await waitUntil(
        () => deepText(card.shadowRoot!.querySelector("[part~=output]") ?? card).trim() === "14 note.txt",
        "the bash output in the card",
        WAIT,
      ).catch((error: Error) => {
        throw new Error(`${error.message}; card: ${JSON.stringify(deepText(card))}`);
      });
      expect(await executeServerCommand("real-pi:file", { path: "note.txt" })).to.equal("written by pi\n");

      // The answer as Markdown: bold, and the code block highlighted (the highlighter loaded from dist/chunks/).
      expect(answer.querySelector("pi-markdown")!.shadowRoot!.querySelector("strong")?.textContent).to.equal("written");
      const code = deepAll(answer, "pi-code-block")[0] as HTMLElement & { highlighted: boolean };
      expect(code, "a code block").to.exist;
      await waitUntil(() => code.highlighted, "the code to be highlighted", WAIT);
      expect(deepText(code.shadowRoot!.querySelector("[part~=code]")!)).to.contain(
        'const note: string = await readFile("note.txt", "utf8");',
      );
      const keyword = [...code.shadowRoot!.querySelectorAll("[part~=code] span")].find(
        (s) => s.textContent === "const",
      );
      expect(keyword, "the keyword is a token of its own").to.exist;
      expect(getComputedStyle(keyword!).color).to.not.equal(
        getComputedStyle(code.shadowRoot!.querySelector("[part~=code]")!).color,
      );

      // The hostile parts are text: no element was made of them, no script ran, the link is not a link.
      const shown = answerText(answer);
      expect(shown).to.contain('Raw <img src=x onerror="window.injected=1"> stays text');
      expect(shown).to.contain("this link");
      expect(deepAll(document, "img")).to.have.length(0);
      const hrefs = deepAll(answer, "a").map((a) => a.getAttribute("href") ?? "");
      expect(hrefs.filter((href) => !href.startsWith("http"))).to.deep.equal([]);
      expect((window as { injected?: number }).injected).to.equal(undefined);

      // For a person to look at: the turn as the bundle draws it, in both themes.
      page.host.id = "transcript-shot";
      for (const theme of ["light", "dark"]) {
        page.host.style.setProperty("--pi-color-scheme", theme);
        page.host.style.background = theme === "light" ? "#fff" : "#1e1e24";
        await new Promise((resolve) => requestAnimationFrame(resolve));
        await executeServerCommand("screenshot", {
          name: `transcript-real-pi-${version}-${theme}`,
          selector: "#transcript-shot",
        });
      }
      page.host.removeAttribute("id");
      page.host.style.removeProperty("--pi-color-scheme");
    });

    it("a page that connects mid-answer shows the text so far, then the whole answer once", async () => {
      await executeServerCommand("real-pi:script", { script: [{ text: SLOW, delayMs: 30 }] });
      const before = articles(page).length;
      await send(page, "Answer slowly");
      await waitUntil(
        () => answerText(streamingArticle(page) ?? document.createElement("p")).length > 40,
        "the first page to show some of the answer",
        WAIT,
      );

      // The "reloaded" page: a fresh pi-session and transcript, connecting while the answer streams.
      const late = mount(bridgeUrl, false);
      pages.push(late);
      const lateSeen: string[] = [];
      await waitUntil(
        () => {
          const busy = streamingArticle(late);
          if (busy) lateSeen.push(answerText(busy));
          return lateSeen.some((t) => t.length > 0);
        },
        "the late page to show the answer so far",
        WAIT,
      );
      const atJoin = lateSeen.find((t) => t.length > 0)!;
      expect(SLOW.startsWith(atJoin), `a beginning of the answer: ${JSON.stringify(atJoin)}`).to.equal(true);
      expect(atJoin.length, "joined in the middle").to.be.below(SLOW.length);

      await settled(page, SLOW);
      await settled(late, SLOW);
      // Both pages show the same conversation, each message once: the first turn, the prompt and the slow answer.
      expect(articles(page).length).to.equal(before + 2);
      expect(names(late)).to.deep.equal(names(page));
      for (const each of [page, late]) {
        const all = articles(each);
        expect(
          all.filter((a) => answerText(a) === SLOW),
          "the slow answer once",
        ).to.have.length(1);
        expect(
          all.filter((a) => deepText(a).includes("Answer slowly")),
          "the prompt once",
        ).to.have.length(1);
        expect(
          all.filter((a) => answerText(a).includes("stays text")),
          "the first answer once",
        ).to.have.length(1);
      }
    });

    it("the page threw nothing", () => {
      expect(errors).to.deep.equal([]);
    });
  });
}
