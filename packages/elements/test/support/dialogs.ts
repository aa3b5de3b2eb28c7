/**
 * The four dialog elements described for the shared contract suite: how to make one, a matching request, and what
 * pressing Enter right after it opens answers.
 */
import type { DialogAnswer, DialogRequest } from "@pi-elements/core";
import { DialogElement } from "../../src/base/dialog-element.js";
import "../../src/elements/confirm/define.js";
import "../../src/elements/editor/define.js";
import "../../src/elements/input/define.js";
import "../../src/elements/select/define.js";

export type AnyDialog = DialogElement<DialogRequest, unknown>;

export interface DialogCase {
  tag: "pi-select" | "pi-confirm" | "pi-input" | "pi-editor";
  /** A standalone element with its own fields set (not yet open, not in the document). */
  create(): AnyDialog;
  /** A request of this element's method; `text` goes into every text field. */
  request(id: string, text?: string, timeout?: number): DialogRequest;
  /** What Enter, pressed right after opening, answers. */
  enterAnswer: DialogAnswer;
  /** What Enter answers right after `request(id)` (default text) opened it. */
  requestEnterAnswer: DialogAnswer;
  /** What `submit()` with no argument answers right after opening: what Enter answers, but Yes for pi-confirm. */
  submitAnswer: DialogAnswer;
}

export const dialogCases: DialogCase[] = [
  {
    tag: "pi-select",
    create() {
      const el = document.createElement("pi-select");
      el.heading = "Pick a model";
      el.options = ["sonnet", "opus", "haiku"];
      return el as unknown as AnyDialog;
    },
    request: (id, text = "Pick", timeout) => ({
      type: "extension_ui_request",
      id,
      method: "select",
      title: text,
      options: [text, "second"],
      ...(timeout !== undefined ? { timeout } : {}),
    }),
    enterAnswer: { value: "sonnet" },
    submitAnswer: { value: "sonnet" },
    requestEnterAnswer: { value: "Pick" },
  },
  {
    tag: "pi-confirm",
    create() {
      const el = document.createElement("pi-confirm");
      el.heading = "Run rm -rf build?";
      el.message = "This deletes the build folder.\nIt cannot be undone.";
      return el as unknown as AnyDialog;
    },
    request: (id, text = "Sure?", timeout) => ({
      type: "extension_ui_request",
      id,
      method: "confirm",
      title: text,
      message: text,
      ...(timeout !== undefined ? { timeout } : {}),
    }),
    // No has focus when it opens: Enter answers the least destructive choice.
    enterAnswer: { confirmed: false },
    submitAnswer: { confirmed: true },
    requestEnterAnswer: { confirmed: false },
  },
  {
    tag: "pi-input",
    create() {
      const el = document.createElement("pi-input");
      el.heading = "Branch name";
      el.placeholder = "feature/…";
      return el as unknown as AnyDialog;
    },
    request: (id, text = "Name?", timeout) => ({
      type: "extension_ui_request",
      id,
      method: "input",
      title: text,
      placeholder: text,
      ...(timeout !== undefined ? { timeout } : {}),
    }),
    enterAnswer: { value: "" },
    submitAnswer: { value: "" },
    requestEnterAnswer: { value: "" },
  },
  {
    tag: "pi-editor",
    create() {
      const el = document.createElement("pi-editor");
      el.heading = "Commit message";
      el.value = "fix: typo\n\nDetails";
      return el as unknown as AnyDialog;
    },
    // pi's editor requests carry no timeout; the extra field is tolerated by the schema and honoured here.
    request: (id, text = "Edit", timeout) =>
      ({
        type: "extension_ui_request",
        id,
        method: "editor",
        title: text,
        prefill: text,
        ...(timeout !== undefined ? { timeout } : {}),
      }) as DialogRequest,
    enterAnswer: { value: "fix: typo\n\nDetails" },
    submitAnswer: { value: "fix: typo\n\nDetails" },
    requestEnterAnswer: { value: "Edit" },
  },
];

/** The element focused now, looking into shadow roots. */
export function deepActive(): Element | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

/** Records the pi-submit / pi-cancel events an element fires. */
export function recordEvents(el: HTMLElement): Array<{ type: string; detail: unknown }> {
  const events: Array<{ type: string; detail: unknown }> = [];
  for (const type of ["pi-submit", "pi-cancel"]) {
    el.addEventListener(type, (event) => events.push({ type, detail: (event as CustomEvent).detail }));
  }
  return events;
}

/**
 * For a test file about something other than arming: every dialog element answers at once, as a page that sets
 * `DialogElement.defaultArmingTime = 0` has it. Arming has its own tests (arming.browser.test.ts).
 */
export function withoutArming(): void {
  let saved = DialogElement.defaultArmingTime;
  before(() => {
    saved = DialogElement.defaultArmingTime;
    DialogElement.defaultArmingTime = 0;
  });
  after(() => {
    DialogElement.defaultArmingTime = saved;
  });
}
