/**
 * Stories in the gallery's view, as a person meets them. A knob whose text holds ANSI escapes shows ESC as `\e` (a
 * text field shows U+001B as nothing or a box) and turns what is typed back into ESC before the story plays it. The
 * slash-command story types "/" itself, so its page (and its screenshot) shows the completion list.
 */
import "../../packages/elements/src/all.js";
import "../../demo/src/gallery/story-view.js";
import { expect, waitUntil } from "@open-wc/testing";
import { promptStories, widgetStories } from "../../demo/src/gallery/stories/display.stories.js";
import type { DemoStoryView } from "../../demo/src/gallery/story-view.js";

describe("demo-story-view knobs", () => {
  let view: DemoStoryView;

  beforeEach(async () => {
    view = document.createElement("demo-story-view") as DemoStoryView;
    view.story = widgetStories.stories.find((story) => story.name === "Above and below");
    document.body.append(view);
    await view.updateComplete;
  });

  afterEach(() => view.remove());

  const field = () => view.shadowRoot?.querySelector<HTMLTextAreaElement>("#knob-lines");
  const widgetText = () =>
    view.shadowRoot?.querySelector('pi-widget-slot[placement="aboveEditor"]')?.shadowRoot?.textContent ?? "";

  it("shows an ANSI knob's escapes as \\e", () => {
    const shown = field()?.value ?? "";
    expect(shown).to.include("\\e[38;2;138;190;183mPlan\\e[39m");
    expect(shown).not.to.include("\u001b");
  });

  it("plays \\e and \\x1b typed in an ANSI knob as ESC: the widget shows the styled text, not the codes", async () => {
    const lines = field();
    if (!lines) throw new Error("no lines knob");
    lines.value = "\\e[31mred\\x1b[39m plain";
    lines.dispatchEvent(new Event("change"));
    await waitUntil(() => widgetText().includes("red plain"), "the widget shows the edited line");
    expect(widgetText()).not.to.include("[31m");
    expect(widgetText()).not.to.include("\\e");
    expect(field()?.value).to.equal("\\e[31mred\\e[39m plain");
  });
});

describe("the slash-command completion story", () => {
  it("opens the completion list with the agent's commands", async () => {
    const view = document.createElement("demo-story-view") as DemoStoryView;
    view.story = promptStories.stories.find((story) => story.name === "Slash-command completion");
    document.body.append(view);
    try {
      const names = () =>
        [
          ...(view.shadowRoot?.querySelector("pi-prompt")?.shadowRoot?.querySelectorAll('[part~="completion-name"]') ??
            []),
        ].map((name) => name.textContent);
      await waitUntil(() => names().length > 0, "the completion list opens");
      expect(names()).to.deep.equal(["/pick", "/pick-long", "/gate", "/review", "/skill:pdf"]);
    } finally {
      view.remove();
    }
  });
});
