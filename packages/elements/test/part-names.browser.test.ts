/**
 * One naming scheme for parts across the elements: every button has the part `button` and a part named for what it
 * does, ending in `-button`; the main part is `base`. The earlier names stay as aliases in the same `part`
 * attribute, and a page's `::part(old)` rules still style them (docs/elements.md, "Part names", lists them).
 */
import { expect, html } from "@open-wc/testing";
import { ConversationState } from "@pi-elements/core/conversation";
import { render } from "lit";
import "../src/all.js";
import { assistant } from "../../core/test/conversation-wire.js";
import type { PiExtensionUi } from "../src/elements/extension-ui/extension-ui.js";
import type { PiNotifications } from "../src/elements/notifications/notifications.js";
import type { PiPrompt } from "../src/elements/prompt/prompt.js";
import type { PiSessionActions } from "../src/elements/session-actions/session-actions.js";
import type { PiTranscript } from "../src/elements/transcript/transcript.js";
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
  { tag: "pi-transcript", old: "copy", now: "copy-button" },
  { tag: "pi-transcript", old: "toggle-tools", now: "toggle-tools-button" },
  { tag: "pi-transcript", old: "jump", now: "jump-button" },
  { tag: "pi-model-picker", old: "trigger", now: "trigger-button" },
  { tag: "pi-code-block", old: "copy", now: "copy-button" },
  { tag: "pi-markdown", old: "format-anyway", now: "format-anyway-button" },
  { tag: "pi-session-actions", old: "fork-option", now: "fork-option-button" },
];

/** The tags custom-elements.json lists: the elements there are, whatever this file was written for. */
async function manifestTags(): Promise<string[]> {
  const response = await fetch("/packages/elements/custom-elements.json");
  const manifest = (await response.json()) as { modules: { declarations?: { tagName?: string }[] }[] };
  return manifest.modules
    .flatMap((module) => module.declarations ?? [])
    .flatMap((declaration) => (declaration.tagName ? [declaration.tagName] : []))
    .sort();
}

let agent: FakeAgent;
let mounted: Promise<HTMLElement> | undefined;
/** Every element, mounted once for the whole file: the tests only read it (or set what they set back). */
const mountAll = () => {
  mounted ??= mountEvery();
  return mounted;
};
after(async () => {
  (await mounted)?.remove();
  agent?.session.close();
});

const bashCall = { type: "toolCall", id: "c1", name: "bash", arguments: { command: "seq 12" } } as const;
const bashRun = {
  toolCallId: "c1",
  toolName: "bash",
  args: {},
  status: "done",
  partialResult: undefined,
  result: { content: [{ type: "text", text: Array.from({ length: 12 }, (_, i) => `line ${i}`).join("\n") }] },
  isError: false,
  durationMs: undefined,
  parentToolCallId: undefined,
  startedAt: undefined,
  endedAt: undefined,
};

/**
 * Every element in a state that shows all its buttons (the prompt twice: idle, and while pi streams; the session
 * actions with a confirmation and the fork list open). Its tags must be the manifest's (checked below).
 */
async function mountEvery(): Promise<HTMLElement> {
  agent = new FakeAgent();
  // Not a fixture (which is removed after each test): it is kept for the file and removed after it.
  const holder = document.createElement("div");
  document.body.append(holder);
  render(
    html`<div>
    <pi-session></pi-session>
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
    <pi-code-block language="js" .code=${"let a = 1;"}></pi-code-block>
    <pi-markdown .limits=${{ inlineChars: 10 }} .text=${"a paragraph longer than ten characters"}></pi-markdown>
    <pi-tool-card .call=${bashCall} .execution=${bashRun}></pi-tool-card>
    <pi-transcript></pi-transcript>
    <pi-model-picker></pi-model-picker>
    <pi-thinking-level></pi-thinking-level>
    <pi-session-stats></pi-session-stats>
    <pi-session-actions id="confirming"></pi-session-actions>
    <pi-session-actions id="forking"></pi-session-actions>
  </div>`,
    holder,
  );
  const wrapper = holder.firstElementChild as HTMLElement;
  await Promise.all(
    [...wrapper.children].map((el) => (el as HTMLElement & { updateComplete?: Promise<unknown> }).updateComplete),
  );
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
  // A conversation with an answer (its copy button) and a tool call (the expand-all button).
  const state = new ConversationState();
  state.setHistory(
    [
      { role: "user", content: "hi", timestamp: 1 },
      assistant([{ type: "text", text: "Hello." }, bashCall]),
      {
        role: "toolResult",
        toolCallId: "c1",
        toolName: "bash",
        content: bashRun.result.content,
        isError: false,
        timestamp: 2,
      },
    ],
    0,
  );
  wrapper.querySelector<PiTranscript>("pi-transcript")!.store = state;
  // The session actions on a quiet session of their own, one with New session's confirmation open, one with the
  // fork list.
  const controls = new FakeAgent();
  controls.results.set("get_fork_messages", { messages: [{ entryId: "e1", text: "hi" }] });
  const [confirming, forking] = [...wrapper.querySelectorAll<PiSessionActions>("pi-session-actions")];
  for (const el of [confirming!, forking!]) el.session = controls.session;
  await settle();
  await confirming!.updateComplete;
  confirming!.start("new");
  forking!.start("fork");
  for (let i = 0; i < 20 && !forking!.shadowRoot!.querySelector("[part~=fork-option-button]"); i++) await settle();
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

/** The elements that have no button of their own to show. */
const WITHOUT_BUTTONS = new Set(["pi-session", "pi-status-bar", "pi-thinking-level", "pi-session-stats"]);

describe("entry points", () => {
  it("all.js registers every element of custom-elements.json, and index.js exports every element's class", async () => {
    const response = await fetch("/packages/elements/custom-elements.json");
    const manifest = (await response.json()) as {
      modules: { declarations?: { tagName?: string; name: string }[] }[];
    };
    const declared = manifest.modules.flatMap((module) => module.declarations ?? []).filter((d) => d.tagName);
    expect(declared.length).to.be.greaterThan(10);
    expect(declared.filter((d) => !customElements.get(d.tagName!)).map((d) => d.tagName)).to.deep.equal([]);
    const index = (await import("../src/index.js")) as Record<string, unknown>;
    expect(declared.filter((d) => typeof index[d.name] !== "function").map((d) => d.name)).to.deep.equal([]);
    expect(declared.every((d) => customElements.get(d.tagName!) === index[d.name])).to.equal(true);
  });
});

describe("the API every element shares (PiElement), on every element of custom-elements.json", () => {
  // pi-session provides a session and draws nothing: it is no PiElement (no theme, no parts).
  const drawn = (wrapper: HTMLElement) =>
    [...wrapper.children].filter((el) => el.localName !== "pi-session") as (HTMLElement & {
      theme?: string;
      updateComplete: Promise<unknown>;
    })[];

  it("`theme`, as a property or the attribute, forces each one's colour scheme", async () => {
    const wrapper = await mountAll();
    for (const el of drawn(wrapper)) {
      const tag = el.localName;
      el.theme = "dark";
      await el.updateComplete;
      expect([el.getAttribute("theme"), getComputedStyle(el).colorScheme], tag).to.deep.equal(["dark", "dark"]);
      el.setAttribute("theme", "light");
      await el.updateComplete;
      expect([el.theme, getComputedStyle(el).colorScheme], tag).to.deep.equal(["light", "light"]);
    }
  });

  it("each one's main part is `base`, which a page's ::part(base) rule styles", async () => {
    const wrapper = await mountAll();
    const style = document.createElement("style");
    style.textContent = ".base::part(base) { outline-offset: 7px; }";
    document.head.append(style);
    try {
      for (const el of drawn(wrapper)) {
        el.classList.add("base");
        const base = el.shadowRoot!.querySelector<HTMLElement>('[part~="base"]');
        expect(base, `${el.localName} has a base part`).to.not.equal(null);
        expect(getComputedStyle(base!).outlineOffset, el.localName).to.equal("7px");
      }
    } finally {
      style.remove();
    }
  });
});

describe("part names", () => {
  it("the fixture has every element of custom-elements.json, and nothing else", async () => {
    const wrapper = await mountAll();
    const mounted = [...new Set([...wrapper.children].map((el) => el.localName))].sort();
    expect(mounted).to.deep.equal(await manifestTags());
  });

  it("every button of every element has the part `button` and one named for what it does, ending in -button", async () => {
    const wrapper = await mountAll();
    const elements = [...wrapper.children];
    const seen: string[] = [];
    for (const el of elements) {
      const buttons = shadowButtons(el);
      if (!WITHOUT_BUTTONS.has(el.localName)) {
        expect(buttons.length, `${el.localName} shows buttons in this fixture`).to.be.greaterThan(0);
      }
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
      "pi-code-block copy-button",
      "pi-markdown format-anyway-button",
      "pi-tool-card toggle-button",
      "pi-transcript copy-button",
      "pi-transcript toggle-tools-button",
      "pi-transcript jump-button",
      "pi-model-picker trigger-button",
      "pi-session-actions new-button",
      "pi-session-actions export-button",
      "pi-session-actions cancel-button",
      "pi-session-actions confirm-button",
      "pi-session-actions fork-option-button",
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
