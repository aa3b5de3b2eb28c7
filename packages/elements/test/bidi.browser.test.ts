/**

 * Bidirectional text in every place pi's text appears: each status entry, widget line, toast and dialog text takes
 * its direction from its own first strong character, in a left-to-right and a right-to-left page, with and without
 * ANSI runs. Checked by where the characters are drawn, not by attributes.
 */
import { expect, fixture, html } from "@open-wc/testing";
import "../src/elements/confirm/define.js";
import "../src/elements/notifications/define.js";
import "../src/elements/select/define.js";
import "../src/elements/status-bar/define.js";
import "../src/elements/widget-slot/define.js";
import type { PiConfirm } from "../src/elements/confirm/confirm.js";
import type { PiNotifications } from "../src/elements/notifications/notifications.js";
import type { PiSelect } from "../src/elements/select/select.js";
import type { PiStatusBar } from "../src/elements/status-bar/status-bar.js";
import type { PiWidgetSlot } from "../src/elements/widget-slot/widget-slot.js";
import { withoutArming } from "./support/dialogs.js";
import { FakeClock } from "./support/fake-clock.js";
import { xOf } from "./support/text-geometry.js";

withoutArming();

const ESC = "\u001b";
const yellow = (text: string) => `${ESC}[33m${text}${ESC}[39m`;

/** Texts whose reading order is known: the sign comes first in reading order, so it is drawn at the start side. */
const CASES = [
  { name: "English", text: "⚠ 2 warnings", first: "⚠", later: "w", rtl: false },
  { name: "Arabic", text: "⚠ ٢ تحذيرات", first: "⚠", later: "ت", rtl: true },
  { name: "Hebrew", text: "⚠ 2 אזהרות", first: "⚠", later: "א", rtl: true },
  { name: "English with an ANSI run", text: `${yellow("⚠")} 2 warnings.`, first: "⚠", later: "w", rtl: false },
  { name: "Hebrew with an ANSI run", text: `${yellow("⚠")} 2 אזהרות.`, first: "⚠", later: "א", rtl: true },
];

/** Mounts one element showing `text` in a page of direction `dir`; returns where its text is drawn. */
type Mount = (text: string, dir: "ltr" | "rtl") => Promise<ParentNode>;

const places: Record<string, Mount> = {
  "status entry": async (text, dir) => {
    const wrapper = await fixture<HTMLElement>(
      html`<div dir=${dir}><pi-status-bar .statuses=${[{ key: "a", text }]}></pi-status-bar></div>`,
    );
    const el = wrapper.querySelector<PiStatusBar>("pi-status-bar")!;
    await el.updateComplete;
    return el.shadowRoot!.querySelector("[part~=entry]")!;
  },
  "widget line": async (text, dir) => {
    const wrapper = await fixture<HTMLElement>(
      html`<div dir=${dir}><pi-widget-slot .widgets=${[{ key: "w", lines: [text] }]}></pi-widget-slot></div>`,
    );
    const el = wrapper.querySelector<PiWidgetSlot>("pi-widget-slot")!;
    await el.updateComplete;
    return el.shadowRoot!.querySelector("[part~=line]")!;
  },
  toast: async (text, dir) => {
    const wrapper = await fixture<HTMLElement>(html`<div dir=${dir}><pi-notifications></pi-notifications></div>`);
    const el = wrapper.querySelector<PiNotifications>("pi-notifications")!;
    el.notify("info", text);
    await el.updateComplete;
    return el.shadowRoot!.querySelector("[part~=message]")!;
  },
  "dialog title and option": async (text, dir) => {
    const wrapper = await fixture<HTMLElement>(
      html`<div dir=${dir}><pi-select .heading=${text} .options=${[text]}></pi-select></div>`,
    );
    const el = wrapper.querySelector<PiSelect>("pi-select")!;
    el.clock = new FakeClock();
    el.show();
    await el.updateComplete;
    return el.shadowRoot!.querySelector(".heading-text")!;
  },
  "select option": async (text, dir) => {
    const wrapper = await fixture<HTMLElement>(
      html`<div dir=${dir}><pi-select heading="x" .options=${[text]}></pi-select></div>`,
    );
    const el = wrapper.querySelector<PiSelect>("pi-select")!;
    el.clock = new FakeClock();
    el.show();
    await el.updateComplete;
    return el.shadowRoot!.querySelector("[role=option] bdi")!;
  },
  "confirm message": async (text, dir) => {
    const wrapper = await fixture<HTMLElement>(
      html`<div dir=${dir}><pi-confirm heading="x" .message=${text}></pi-confirm></div>`,
    );
    const el = wrapper.querySelector<PiConfirm>("pi-confirm")!;
    el.clock = new FakeClock();
    el.show();
    await el.updateComplete;
    return el.shadowRoot!.querySelector("[part~=message]")!;
  },
};

describe("bidirectional text is drawn in its own reading order", () => {
  for (const [place, mount] of Object.entries(places)) {
    for (const dir of ["ltr", "rtl"] as const) {
      for (const { name, text, first, later, rtl } of CASES) {
        it(`${place}, ${name}, in a ${dir} page`, async () => {
          const shown = await mount(text, dir);
          const firstX = xOf(shown, first);
          const laterX = xOf(shown, later);
          // Reading order: left to right for an LTR text, right to left for an RTL one, whatever the page's direction.
          if (rtl) expect(firstX).to.be.greaterThan(laterX);
          else expect(firstX).to.be.lessThan(laterX);
        });
      }
    }
  }
});
