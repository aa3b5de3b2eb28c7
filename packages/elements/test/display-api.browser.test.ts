/**

 * The API the elements share (PiElement): `theme` forces a colour scheme on each, reflected as the attribute the
 * tokens style; the main part is `base` on each, and the earlier names (`list` on pi-status-bar, `stack` on
 * pi-notifications, `dialog` on the dialog elements and pi-extension-ui) still reach the same element from a page's
 * `::part()` rule.
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
import type { PiElement } from "../src/base/pi-element.js";
import type { PiNotifications } from "../src/elements/notifications/notifications.js";
import { withoutArming } from "./support/dialogs.js";

withoutArming();

/** Each display element, with what makes its `base` part render. */
async function displayElements(): Promise<PiElement[]> {
  const box = await fixture<HTMLElement>(html`<div>
    <pi-status-bar .statuses=${[{ key: "a", text: "ready" }]}></pi-status-bar>
    <pi-widget-slot .widgets=${[{ key: "w", lines: ["one"] }]}></pi-widget-slot>
    <pi-notifications></pi-notifications>
    <pi-prompt></pi-prompt>
  </div>`);
  const elements = [...box.children] as PiElement[];
  (box.querySelector("pi-notifications") as PiNotifications).notify("info", "hello");
  for (const el of elements) await el.updateComplete;
  return elements;
}

/** `theme` set as a property reflects to the attribute and back, and forces each element's colour scheme. */
async function expectThemeForced(elements: PiElement[]): Promise<void> {
  for (const el of elements) {
    const tag = el.localName;
    el.theme = "dark";
    await el.updateComplete;
    expect(el.getAttribute("theme"), tag).to.equal("dark");
    expect(getComputedStyle(el).colorScheme, tag).to.equal("dark");
    el.setAttribute("theme", "light");
    await el.updateComplete;
    expect(el.theme, tag).to.equal("light");
    expect(getComputedStyle(el).colorScheme, tag).to.equal("light");
  }
}

describe("display elements: shared API", () => {
  it("forces the colour scheme with `theme` (property or attribute) on each", async () => {
    await expectThemeForced(await displayElements());
  });

  it("names the main part `base` on each, and keeps `list` and `stack` as aliases", async () => {
    const style = document.createElement("style");
    style.textContent = `
      pi-status-bar::part(list), pi-notifications::part(stack) { outline: 3px solid rgb(1, 2, 3); }
      .base::part(base) { outline-offset: 7px; }`;
    document.head.append(style);
    try {
      for (const el of await displayElements()) {
        el.classList.add("base");
        const base = el.shadowRoot!.querySelector<HTMLElement>('[part~="base"]');
        expect(base, el.localName).to.exist;
        expect(getComputedStyle(base!).outlineOffset, el.localName).to.equal("7px");
        if (el.localName === "pi-status-bar" || el.localName === "pi-notifications") {
          expect(getComputedStyle(base!).outlineColor, el.localName).to.equal("rgb(1, 2, 3)");
        }
      }
    } finally {
      style.remove();
    }
  });
});

/** The four dialog elements, open on their own, and pi-extension-ui (whose `<dialog>` is there while it is empty). */
async function dialogElements(): Promise<PiElement[]> {
  const box = await fixture<HTMLElement>(html`<div>
    <pi-select heading="Pick" .options=${["a", "b"]} open></pi-select>
    <pi-confirm heading="Sure?" open></pi-confirm>
    <pi-input heading="Name" open></pi-input>
    <pi-editor heading="Edit" open></pi-editor>
    <pi-extension-ui></pi-extension-ui>
  </div>`);
  const elements = [...box.children] as PiElement[];
  for (const el of elements) await el.updateComplete;
  return elements;
}

describe("dialog elements and pi-extension-ui: shared API", () => {
  it("are PiElements: `theme` (property or attribute) forces the colour scheme on each", async () => {
    await expectThemeForced(await dialogElements());
  });

  it("name the `<dialog>` `base`, and keep `dialog` as its alias", async () => {
    const style = document.createElement("style");
    style.textContent = `
      .alias::part(dialog) { outline: 3px solid rgb(1, 2, 3); }
      .base::part(base) { outline-offset: 7px; }`;
    document.head.append(style);
    try {
      for (const el of await dialogElements()) {
        el.classList.add("base", "alias");
        const base = el.shadowRoot!.querySelector<HTMLElement>('[part~="base"]');
        expect(base?.localName, el.localName).to.equal("dialog");
        expect(getComputedStyle(base!).outlineOffset, el.localName).to.equal("7px");
        expect(getComputedStyle(base!).outlineColor, el.localName).to.equal("rgb(1, 2, 3)");
      }
    } finally {
      style.remove();
    }
  });
});
