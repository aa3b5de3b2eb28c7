/**
 * The story tests, over the stories as Storybook serves them, in every engine: the workshop is built
 * (`storybook build` of demo/.storybook, test/support/plugins/storybook.mjs) and its preview (iframe.html, with the
 * project's decorators, controls' defaults and play functions) is opened once in a same-origin iframe; each story is
 * then shown in it as Storybook's manager shows a story picked in the sidebar (`setCurrentStory` on the preview's
 * channel), in both themes, switched as the toolbar's theme does (`updateGlobals`). In each: the story renders
 * without an error, asks nothing of another origin, axe finds nothing in it, the markup its texts hold injects no
 * element, and a story with a dialog open is cancelled by Escape, pressed as a user does, which reaches the story's
 * agent as `"cancelled":true` (read from the frame's Storybook channel, as the actions panel gets it).
 */
import { expect, waitUntil } from "@open-wc/testing";
import { executeServerCommand, sendKeys } from "@web/test-runner-commands";
import { deepAll } from "../support/deep-dom.js";

interface IndexEntry {
  id: string;
  title: string;
  name: string;
  type: "story" | "docs";
}

interface StorybookWindow extends Window {
  __STORYBOOK_ADDONS_CHANNEL__?: {
    on(event: string, listener: (event: ActionEvent) => void): void;
    once(event: string, listener: () => void): void;
    off(event: string, listener: (...args: never[]) => void): void;
    emit(event: string, data: unknown): void;
  };
  axe?: {
    run(
      context: unknown,
    ): Promise<{ violations: { id: string; nodes: { target: unknown; failureSummary?: string }[] }[] }>;
  };
}

interface ActionEvent {
  data: { name: string; args: unknown };
}

const { base } = await executeServerCommand<{ base: string }, undefined>("storybook:build");
const entries = Object.values(
  ((await (await fetch(`${base}index.json`)).json()) as { entries: Record<string, IndexEntry> }).entries,
).filter((entry) => entry.type === "story");

/**
 * Where a story's agent asks a question: always in a dialog element's stories, in some of pi-extension-ui's (one
 * shows the prompt with nothing pending).
 */
const DIALOGS: Record<string, "always" | "maybe"> = {
  "pi-select": "always",
  "pi-confirm": "always",
  "pi-input": "always",
  "pi-editor": "always",
  "pi-extension-ui": "maybe",
};

/** The preview's frame, open in an iframe of this page: the story it shows, its theme, what its window reported. */
interface StoryFrame {
  frame: HTMLIFrameElement;
  window: StorybookWindow;
  /** The story shown and the theme it is shown in. */
  id: string;
  theme: "light" | "dark";
  /** The errors the frame's window reported since the story was shown. */
  errors: string[];
}

/** Storybook's preview, opened on `id` in `theme`. */
async function openPreview(id: string, theme: "light" | "dark"): Promise<StoryFrame> {
  const frame = document.createElement("iframe");
  frame.title = "Storybook preview";
  frame.style.cssText = "display: block; width: 1024px; height: 768px; border: 0";
  // The a11y addon's own axe pass after each render is turned off (its `manual` global): this test runs axe itself,
  // and two passes cannot run at once in a frame, so each render waited for the addon's before running its own.
  frame.src = `${base}iframe.html?id=${encodeURIComponent(id)}&viewMode=story&globals=theme:${theme};a11y.manual:!true`;
  const errors: string[] = [];
  let watched: Window | undefined;
  // The frame's own window exists from the moment its document does: its errors are listened to from then on.
  const watch = () => {
    const inner = frame.contentWindow;
    if (!inner || inner === watched || inner.location.href === "about:blank") return;
    watched = inner;
    inner.addEventListener("error", (event) => errors.push(`error: ${event.message}`));
    inner.addEventListener("unhandledrejection", (event) => errors.push(`unhandled rejection: ${event.reason}`));
    // The frame's own console (the DOM's Window type does not declare it).
    const { console: frameConsole } = inner as Window & typeof globalThis;
    const original = frameConsole.error.bind(frameConsole);
    frameConsole.error = (...args: unknown[]) => {
      errors.push(`console.error: ${args.map(String).join(" ")}`);
      original(...args);
    };
  };
  document.body.append(frame);
  await rendered(frame, `${id} rendered`, watch);
  const inner = frame.contentWindow as StorybookWindow;
  // Every request a story makes is listed, however many the preview made before it.
  inner.performance.setResourceTimingBufferSize(100_000);
  return { frame, window: inner, id, theme, errors };
}

/** The preview's story root. */
const rootOf = (story: StoryFrame) => story.window.document.querySelector("#storybook-root")!;

/** What Storybook's error display says, when the preview shows it instead of the story. */
function errorDisplay(story: StoryFrame): string | undefined {
  const { document } = story.window;
  if (!document.body.classList.contains("sb-show-errordisplay")) return undefined;
  return `Storybook's error display: ${document.querySelector("#error-message")?.textContent?.trim()}`;
}

/**
 * Waits until the frame's story has rendered (or Storybook shows its error display) and its elements have no update
 * pending, then three animation frames: what the story's agent sends arrives a frame after the elements are in.
 */
async function rendered(frame: HTMLIFrameElement, what: string, each = () => {}): Promise<void> {
  await waitUntil(
    () => {
      each();
      const root = frame.contentDocument?.querySelector("#storybook-root");
      return (
        frame.contentDocument?.body?.classList.contains("sb-show-errordisplay") ||
        (root?.querySelector(".stage *") &&
          deepAll(root, "*").every((e) => !(e as { isUpdatePending?: boolean }).isUpdatePending))
      );
    },
    what,
    { timeout: 20_000, interval: 16 },
  );
  const inner = frame.contentWindow!;
  for (let i = 0; i < 3; i++) await new Promise((resolve) => inner.requestAnimationFrame(resolve));
}

/**
 * Sends `event` on the preview's channel and waits until Storybook has rendered the story again (or says it could
 * not), then until its elements are in.
 */
async function renderAfter(story: StoryFrame, event: string, data: unknown, what: string): Promise<void> {
  const channel = story.window.__STORYBOOK_ADDONS_CHANNEL__!;
  const outcomes = ["storyRendered", "storyErrored", "storyThrewException", "storyMissing"];
  let done = () => {};
  const settled = new Promise<void>((resolve) => {
    done = resolve;
  });
  for (const outcome of outcomes) channel.on(outcome, done);
  try {
    channel.emit(event, data);
    await settled;
  } finally {
    for (const outcome of outcomes) channel.off(outcome, done);
  }
  await rendered(story.frame, what);
}

/**
 * Shows story `id` in the preview as the manager does when it is picked in the sidebar; the errors and requests
 * listed from then on are its own (the first story's include the preview's load).
 */
async function showStory(story: StoryFrame, id: string): Promise<void> {
  if (story.id === id) return;
  story.errors.length = 0;
  story.window.performance.clearResourceTimings();
  await renderAfter(story, "setCurrentStory", { storyId: id, viewMode: "story" }, `${id} rendered`);
  story.id = id;
}

/**
 * Switches the story to `theme` as the toolbar does (Storybook's `updateGlobals` on the frame's channel) and waits
 * until Storybook has rendered it again: the story starts over, with a new agent, in the new theme.
 */
async function switchTheme(story: StoryFrame, theme: "light" | "dark"): Promise<void> {
  await renderAfter(story, "updateGlobals", { globals: { theme } }, `${story.id} rendered again in ${theme}`);
  story.theme = theme;
}

/** axe over the story's root, with the frame's own axe (the a11y addon's copy when it has one loaded). */
async function violations(story: StoryFrame): Promise<string[]> {
  if (!story.window.axe) {
    const script = story.frame.contentDocument!.createElement("script");
    script.src = "/node_modules/axe-core/axe.min.js";
    const loaded = new Promise((resolve, reject) => {
      script.onload = resolve;
      script.onerror = reject;
    });
    story.frame.contentDocument!.head.append(script);
    await loaded;
  }
  const result = await story.window.axe!.run({ include: [rootOf(story)] });
  return result.violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => [n.target, n.failureSummary]))}`);
}

/** The IMG and SCRIPT elements under the story's root but the user's own image (a thumbnail of a dropped file's blob:). */
function injected(story: StoryFrame): string[] {
  const userImage = (element: Element) =>
    element.matches('img[part~="thumbnail"]') && (element.getAttribute("src") ?? "").startsWith("blob:");
  return deepAll(rootOf(story), "*")
    .filter((element) => ["img", "script"].includes(element.localName) && !userImage(element))
    .map((element) => element.outerHTML);
}

/** The requests the frame made to another origin than this page's. */
function foreignRequests(story: StoryFrame): string[] {
  return story.window.performance
    .getEntriesByType("resource")
    .map((entry) => entry.name)
    .filter(
      (name) => !name.startsWith(`${location.origin}/`) && !name.startsWith("blob:") && !name.startsWith("data:"),
    );
}

/** The dialog element open in the story with the focus in it, when there is one. */
function openDialog(story: StoryFrame): Element | undefined {
  const dialogs = ["pi-select", "pi-confirm", "pi-input", "pi-editor"];
  let focused = story.frame.contentDocument!.activeElement;
  while (focused?.shadowRoot?.activeElement) focused = focused.shadowRoot.activeElement;
  return deepAll(rootOf(story), "*").find(
    (element) =>
      dialogs.includes(element.localName) &&
      element.hasAttribute("open") &&
      focused !== null &&
      (element.shadowRoot?.contains(focused) ?? false),
  );
}

/**
 * Whether Escape cancels the story's dialog: waits for the dialog (a while where the agent may ask one), presses
 * Escape and waits for the agent to get `"cancelled":true`. Undefined when the story has no dialog open.
 */
async function escapeCancels(story: StoryFrame, dialog: "always" | "maybe" | undefined): Promise<boolean | undefined> {
  if (dialog === undefined) return undefined;
  if (dialog === "maybe") {
    // Whether the story's agent asked anything is the core's to say: the story's requests reached its session in
    // the frames the story has rendered in (the agent speaks in the first after the elements are in; `rendered` waits
    // three), not after a time.
    const host = deepAll(rootOf(story), "pi-extension-ui")[0] as
      | (Element & { session?: { ui: { getSnapshot(): { shownDialogId?: string } } } })
      | undefined;
    if (host?.session?.ui.getSnapshot().shownDialogId === undefined) return undefined;
  }
  try {
    // A bound against a hang: the dialog the core shows opens with the focus in it.
    await waitUntil(() => openDialog(story), "", { timeout: 5000 });
  } catch {
    return false;
  }
  const sent: ActionEvent[] = [];
  const channel = story.window.__STORYBOOK_ADDONS_CHANNEL__!;
  const listen = (event: ActionEvent) => sent.push(event);
  channel.on("storybook/actions/action-event", listen);
  await sendKeys({ press: "Escape" });
  try {
    await waitUntil(
      () =>
        sent.some(
          (event) => event.data.name === "sent to the agent" && String(event.data.args).includes('"cancelled":true'),
        ),
      "",
      { timeout: 5000 },
    );
    return true;
  } catch {
    return false;
  } finally {
    channel.off("storybook/actions/action-event", listen);
  }
}

/** The stories whose dialog Escape cancelled, counted so that the last test can tell none was skipped. */
const cancelledIn = new Set<string>();

describe("the stories, as Storybook serves them", () => {
  it("are there", () => {
    // The list the tests below are made from: Storybook's index of the built workshop (test/e2e/storybook.test.ts
    // checks it holds every story of the gallery).
    expect(entries.length).to.be.greaterThan(50);
  });

  /** The preview, opened once on the first story: each test shows its story in it. */
  let preview: StoryFrame | undefined;
  after(() => preview?.frame.remove());

  for (const entry of entries) {
    it(`${entry.title} / ${entry.name}: renders, passes axe in light and dark, injects nothing, Escape cancels its dialog`, async function (this: Mocha.Context) {
      // Three renders (the preview's first load in one) and two axe passes (over 500 options in one story), with
      // three engines sharing two cores.
      this.timeout(90_000);
      const failures: string[] = [];
      preview ??= await openPreview(entry.id, "light");
      const story = preview;
      await showStory(story, entry.id);
      // The theme the story is shown in first is the one the one before it was left in: one render fewer.
      const themes = story.theme === "light" ? (["light", "dark"] as const) : (["dark", "light"] as const);
      for (const theme of themes) {
        if (story.theme !== theme) await switchTheme(story, theme);
        const error = errorDisplay(story);
        if (error) failures.push(`${theme}: ${error}`);
        // The theme the toolbar's global sets on the frame's page (demo/.storybook/preview.ts).
        const scheme = story.window.getComputedStyle(story.window.document.documentElement).colorScheme;
        if (scheme !== theme) failures.push(`${theme}: the page's color-scheme is "${scheme}"`);
        for (const v of await violations(story)) failures.push(`${theme}: axe ${v}`);
        if (theme === "light") {
          for (const element of injected(story)) failures.push(`injected ${element}`);
          const cancelled = await escapeCancels(story, DIALOGS[entry.title]);
          if (cancelled === false) failures.push("no dialog, or Escape did not reach the agent as cancelled");
          if (cancelled) cancelledIn.add(entry.title);
        }
      }
      for (const request of foreignRequests(story)) failures.push(`requested ${request}`);
      for (const error of story.errors) failures.push(error);
      expect(failures).to.deep.equal([]);
    });
  }

  it("had a dialog to cancel in every dialog element's stories and in pi-extension-ui's", () => {
    expect([...cancelledIn].sort()).to.deep.equal(Object.keys(DIALOGS).sort());
  });
});
