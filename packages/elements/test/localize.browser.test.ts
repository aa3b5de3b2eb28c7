/**
 * Page-wide string overrides (setStrings) and their one key space (issue #34 item 12): a plain key changes every
 * element that uses it; a key qualified with a tag (`pi-session-actions:failed`) changes that element's alone; an
 * element's own `strings` wins over both.
 */
import { expect, fixture, html } from "@open-wc/testing";
import { modelPickerStrings } from "../src/elements/model-picker/strings.js";
import { sessionActionsStrings } from "../src/elements/session-actions/strings.js";
import { thinkingLevelStrings } from "../src/elements/thinking-level/strings.js";
import { localize, localizeIn, setStrings } from "../src/i18n/localize.js";

describe("setStrings: one key space, with keys qualified by tag", () => {
  afterEach(() => {
    // Overrides are page-wide: each test puts its own back to the built-in words.
    setStrings("en", {
      failed: undefined,
      "pi-session-actions:failed": undefined,
      "pi-select:cancel": undefined,
    });
  });

  it("a plain key changes it in every element that uses it; a qualified one in that element only", async () => {
    const box = await fixture<HTMLElement>(html`<div lang="en">
      <pi-session-actions></pi-session-actions><pi-model-picker></pi-model-picker><pi-thinking-level></pi-thinking-level>
    </div>`);
    const [actions, picker, level] = [...box.children];
    const failed = () => [
      localizeIn(sessionActionsStrings, actions!, "failed", { action: "Compact", error: "no" }),
      localizeIn(modelPickerStrings, picker!, "failed", { error: "no" }),
      localizeIn(thinkingLevelStrings, level!, "failed", { error: "no" }),
    ];
    expect(failed()).to.deep.equal([
      "Compact failed: no",
      "pi did not switch the model: no",
      "pi did not change the thinking level: no",
    ]);
    setStrings("en", { "pi-session-actions:failed": "Could not {action}: {error}" });
    expect(failed()).to.deep.equal([
      "Could not Compact: no",
      "pi did not switch the model: no",
      "pi did not change the thinking level: no",
    ]);
    setStrings("en", { failed: "Failed: {error}" });
    expect(failed(), "the qualified key still wins for its element").to.deep.equal([
      "Could not Compact: no",
      "Failed: no",
      "Failed: no",
    ]);
  });

  it("qualifies the extension UI's shared keys too, and an element's own strings win over both", async () => {
    const box = await fixture<HTMLElement>(html`<div><pi-select></pi-select><pi-input></pi-input></div>`);
    const [select, input] = [...box.children];
    setStrings("*", { "pi-select:cancel": "Never mind" });
    expect([localize(select!, "cancel"), localize(input!, "cancel")]).to.deep.equal(["Never mind", "Cancel"]);
    expect(localize(select!, "cancel", undefined, { cancel: "Close" })).to.equal("Close");
    setStrings("*", { "pi-select:cancel": undefined });
  });
});
