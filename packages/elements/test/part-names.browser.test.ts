/**
 * One naming scheme for parts across the elements: every button has the part `button` and a part named for what it
 * does, ending in `-button`; the main part is `base`. The earlier names stay as aliases in the same `part`
 * attribute, and a page's `::part(old)` rules still style them (docs/elements.md, "Part names", lists them).
 */
import { expect, fixture, html } from "@open-wc/testing";
import "../src/elements/confirm/define.js";
import "../src/elements/editor/define.js";
import "../src/elements/extension-ui/define.js";
import "../src/elements/input/define.js";
import "../src/elements/notifications/define.js";
import "../src/elements/prompt/define.js";
import "../src/elements/select/define.js";
import "../src/elements/status-bar/define.js";
import "../src/elements/widget-slot/define.js";
import type { PiExtensionUi } from "../src/elements/extension-ui/extension-ui.js";
import type { PiNotifications } from "../src/elements/notifications/notifications.js";
import type { PiPrompt } from "../src/elements/prompt/prompt.js";
import { FakeAgent, settle } from "./session-fake-agent.js";
import { withoutArming } from "./support/dialogs.js";

withoutArming();

/** The earlier name → the part that now names the same piece, per element (as docs/elements.md lists them). */
const ALIASES: Array<{ tag: string; old: string; now: string }> = [
  { tag: "pi-select", old: "dialog", now: "base" },
  { tag: "pi-confirm", old: "dialog", now: "base" },
  { tag: "pi-input", old: "dialog", now: "base" },
  { tag: "pi-editor", old: "dialog", now: "base" },
  { tag: "pi-extension-ui", old: "dialog", now: "base" },
  { tag: "pi-extension-ui", old: "queue-previous", now: "queue-previous-button" },
  { tag: "pi-extension-ui", old: "queue-next", now: "queue-next-button" },
  { tag: "pi-extension-ui", old: "queue-button", now: "queue-next-button" },
  { tag: "pi-extension-ui", old: "queue-timed", now: "queue-timed-button" },
  { tag: "pi-notifications", old: "stack", now: "base" },
  { tag: "pi-notifications", old: "list", now: "toasts" },
  { tag: "pi-notifications", old: "dismiss", now: "dismiss-button" },
  { tag: "pi-prompt", old: "send", now: "send-button" },
  { tag: "pi-prompt", old: "steer", now: "steer-button" },
  { tag: "pi-prompt", old: "follow-up", now: "follow-up-button" },
  { tag: "pi-prompt", old: "abort", now: "abort-button" },
  { tag: "pi-status-bar", old: "list", now: "base" },
  { tag: "pi-widget-slot", old: "toggle", now: "toggle-button" },
];

let agent: FakeAgent;
beforeEach(() => {
  agent = new FakeAgent();
});
afterEach(() => agent.session.close());

/** Every element mounted in a state that shows all its buttons (the prompt twice: idle, and while pi streams). */
async function mountAll(): Promise<HTMLElement> {
  const wrapper = await fixture<HTMLElement>(html`<div>
    <pi-select heading="Pick" open .options=${["a", "b"]}></pi-select>
    <pi-confirm heading="Sure?" message="Really?" open></pi-confirm>
    <pi-input heading="Name?" open></pi-input>
    <pi-editor heading="Edit" open></pi-editor>
    <pi-extension-ui></pi-extension-ui>
    <pi-notifications></pi-notifications>
    <pi-prompt id="idle"></pi-prompt>
    <pi-prompt id="streaming"></pi-prompt>
    <pi-status-bar .statuses=${[{ key: "k", text: "ready" }]}></pi-status-bar>
    <pi-widget-slot .widgets=${[{ key: "w", lines: Array.from({ length: 12 }, (_, i) => `line ${i}`) }]}></pi-widget-slot>
  </div>`);
  const ui = wrapper.querySelector<PiExtensionUi>("pi-extension-ui")!;
  ui.session = agent.session;
  agent.request("input", { title: "First" });
  // Shown before the others arrive: a timed one then waits behind it (with the button that brings it up).
  await settle();
  agent.request("input", { title: "Second" });
  agent.request("confirm", { title: "Timed", message: "", timeout: 60_000 });
  wrapper.querySelector<PiNotifications>("pi-notifications")!.notify("info", "hello");
  const idle = wrapper.querySelector<PiPrompt>("#idle")!;
  idle.session = new FakeAgent().session;
  const streaming = wrapper.querySelector<PiPrompt>("#streaming")!;
  streaming.session = agent.session;
  agent.send({ type: "agent_start" });
  await settle();
  return wrapper;
}

/** Each element's shadow root, and those of the dialog elements pi-extension-ui shows inside its own. */
function shadowButtons(el: Element): HTMLButtonElement[] {
  const root = el.shadowRoot;
  if (!root) return [];
  return [...root.querySelectorAll<HTMLButtonElement>("button")];
}

const partsOf = (el: Element) => [...el.part];

describe("part names", () => {
  it("every button of every element has the part `button` and one named for what it does, ending in -button", async () => {
    const wrapper = await mountAll();
    const elements = [...wrapper.children];
    const seen: string[] = [];
    for (const el of elements) {
      const buttons = shadowButtons(el);
      expect(buttons.length, `${el.localName} shows buttons in this fixture`).to.be.greaterThan(
        el.localName === "pi-status-bar" ? -1 : 0,
      );
      for (const button of buttons) {
        const parts = partsOf(button);
        expect(parts, `${el.localName}: ${button.outerHTML}`).to.include("button");
        expect(
          parts.some((part) => part !== "button" && part.endsWith("-button")),
          `${el.localName}: a role-specific -button part in ${parts.join(" ")}`,
        ).to.equal(true);
        seen.push(`${el.localName} ${parts.find((part) => part !== "button" && part.endsWith("-button"))}`);
      }
    }
    expect(seen, seen.join(", ")).to.include.members([
      "pi-select cancel-button",
      "pi-confirm yes-button",
      "pi-confirm no-button",
      "pi-input submit-button",
      "pi-editor cancel-button",
      "pi-extension-ui queue-previous-button",
      "pi-extension-ui queue-next-button",
      "pi-extension-ui queue-timed-button",
      "pi-notifications dismiss-button",
      "pi-prompt send-button",
      "pi-prompt steer-button",
      "pi-prompt follow-up-button",
      "pi-prompt abort-button",
      "pi-widget-slot toggle-button",
    ]);
  });

  it("no part name means two things: `list` is only ever an alias of the element's own new name", async () => {
    const wrapper = await mountAll();
    for (const el of wrapper.children) {
      for (const node of el.shadowRoot?.querySelectorAll("[part~=list]") ?? []) {
        const now = ALIASES.find((alias) => alias.tag === el.localName && alias.old === "list")?.now;
        expect(now, `${el.localName} documents list as an alias`).to.be.a("string");
        expect(partsOf(node), el.localName).to.include(now!);
      }
    }
  });

  for (const { tag, old, now } of ALIASES) {
    it(`${tag}: ::part(${old}) still styles the part now named ${now}`, async () => {
      const wrapper = await mountAll();
      const style = document.createElement("style");
      style.textContent = `${tag}::part(${old}) { scroll-margin-top: 7px; }`;
      document.head.append(style);
      try {
        // The first of the tag that shows it (of the two prompts, the streaming one has steer, follow-up, abort).
        const piece =
          [...wrapper.querySelectorAll(tag)]
            .map((el) => el.shadowRoot!.querySelector(`[part~="${now}"]`))
            .find((found) => found !== null) ?? null;
        expect(piece, `${tag} renders [part~=${now}]`).to.not.equal(null);
        expect(partsOf(piece!)).to.include(old);
        expect(getComputedStyle(piece!).scrollMarginTop).to.equal("7px");
      } finally {
        style.remove();
      }
    });
  }
});
