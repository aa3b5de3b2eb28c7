/**
 * The gallery's stories are fixtures too: every story is rendered with its default knobs, bound to a real
 * PiSession whose agent end plays the story, and checked like a user would meet it: it is accessible (axe) in light
 * and dark, the markup the stories put in every text field injects no element, and a story that opens a dialog can
 * be cancelled with Escape, which reaches the agent as `{"cancelled":true}`.
 */
import "../../packages/elements/src/all.js";
import "../../packages/elements/src/elements/model-picker/define.js";
import "../../packages/elements/src/elements/session-actions/define.js";
import "../../packages/elements/src/elements/session-stats/define.js";
import "../../packages/elements/src/elements/thinking-level/define.js";
import { expect, waitUntil } from "@open-wc/testing";
import { sendKeys } from "@web/test-runner-commands";
import { type ReactiveElement, render } from "lit";
import { storyModules } from "../../demo/src/gallery/stories/index.js";
import { defaultArgs } from "../../demo/src/gallery/story.js";
import { StoryAgent } from "../../demo/src/gallery/story-agent.js";
import { deepActive } from "../../packages/elements/test/support/dialogs.js";

/** Every element under `root`, across open shadow roots. */
function deepElements(root: Element | ShadowRoot): Element[] {
  const found: Element[] = [];
  for (const element of root.querySelectorAll("*")) {
    found.push(element);
    if (element.shadowRoot) found.push(...deepElements(element.shadowRoot));
  }
  return found;
}

const settle = async () => {
  for (let i = 0; i < 3; i++) await new Promise(requestAnimationFrame);
};

/**
 * What the checks need before they look: no element under `host` has an update still to render, and when the agent
 * asked a question, a dialog element is open with the focus in it (where Escape goes).
 */
function shown(host: Element, agent: StoryAgent): boolean {
  const elements = deepElements(host);
  if (elements.some((element) => (element as Partial<ReactiveElement>).isUpdatePending === true)) return false;
  if (agent.session.ui.getSnapshot().dialogs.length === 0) return true;
  const focused = deepActive();
  return elements.some((element) => element.hasAttribute("open") && element.shadowRoot?.contains(focused) === true);
}

for (const module of storyModules) {
  describe(`stories: ${module.title}`, () => {
    for (const story of module.stories) {
      it(`${story.name}: renders, passes axe in light and dark, injects nothing, Escape cancels its dialog`, async function (this: Mocha.Context) {
        // Two axe passes (over 500 options in one story): with three engines sharing two cores, WebKit took longer
        // than the default 10 s, as it did for the 500-option list in select.browser.test.ts.
        this.timeout(60_000);
        const agent = new StoryAgent();
        const host = document.createElement("div");
        document.body.append(host);
        try {
          const args = defaultArgs(story.knobs);
          render(story.render({ session: agent.session, agent }, args), host);
          await settle();
          await story.play?.(agent, args);
          // The memory transport delivers on microtasks: by the next frames the session has every record sent.
          await settle();
          await waitUntil(() => shown(host, agent), "the story rendered, and its dialog (if any) open and focused", {
            timeout: 20_000,
          });

          // The one image a story may show is the user's own: a file dropped on pi-prompt, a thumbnail of its blob:.
          const userImage = (element: Element) =>
            element.matches('img[part~="thumbnail"]') && (element.getAttribute("src") ?? "").startsWith("blob:");
          const injected = deepElements(host).filter(
            (element) => ["IMG", "SCRIPT"].includes(element.tagName) && !userImage(element),
          );
          expect(injected.map((element) => element.outerHTML)).to.deep.equal([]);
          for (const scheme of ["light", "dark"]) {
            host.style.setProperty("--pi-color-scheme", scheme);
            host.style.colorScheme = scheme;
            await settle();
            await expect(host).to.be.accessible();
          }

          if (agent.session.ui.getSnapshot().dialogs.length > 0) {
            await sendKeys({ press: "Escape" });
            await waitUntil(
              () => agent.received.some((record) => JSON.parse(record.line).cancelled === true),
              "Escape reaches the agent as cancelled",
            );
          }
        } finally {
          render(null, host);
          host.remove();
          agent.close();
        }
      });
    }
  });
}
