/**
 * What every story shares: the elements' manifest (the docs pages' tables and the controls of each element's own
 * attributes), the toolbar's theme, language and direction, and the elements' events in the actions panel.
 */
// Every element, from source (the demo's vite.config.ts aliases).
import "@pi-elements/elements/all.js";
import { type Decorator, type Preview, setCustomElementsManifest } from "@storybook/web-components-vite";
import { html } from "lit";
import { action } from "storybook/actions";
import manifest from "../../packages/elements/custom-elements.json" with { type: "json" };
import { followDocsGlobals } from "./docs-frames.js";

setCustomElementsManifest(manifest);
followDocsGlobals();

/** Every event the elements fire (each a CustomEvent whose `detail` is what a page reads). */
const EVENTS = [
  "pi-submit",
  "pi-cancel",
  "pi-request-close",
  "pi-send",
  "pi-abort",
  "pi-send-error",
  "pi-copy",
  "pi-fork",
  "pi-notification-dismiss",
  "pi-widget-toggle",
  "pi-session-change",
  "pi-model-change",
  "pi-tool-card-toggle",
];
// Logged in the actions panel with its detail: Storybook's own event handles log the event object, whose `detail`
// (a getter, not an own property) shows as an empty object. Captured on the document, so no story can stop one.
for (const name of EVENTS) {
  const log = action(name);
  document.addEventListener(name, (event) => log((event as CustomEvent).detail), { capture: true });
}

/** The toolbar's choices, on the story's stage as the gallery sets them. */
const withPage: Decorator = (story, context) => {
  const { theme, locale, direction } = context.globals as { theme?: string; locale?: string; direction?: string };
  const scheme = theme && theme !== "auto" ? `--pi-color-scheme: ${theme}; color-scheme: ${theme}` : "";
  document.documentElement.style.colorScheme = theme && theme !== "auto" ? theme : "light dark";
  return html`<div class="stage" lang=${locale ?? "en"} dir=${direction ?? "ltr"} style=${scheme}>${story()}</div>`;
};

const preview: Preview = {
  decorators: [withPage],
  globalTypes: {
    theme: {
      description: "Colour scheme",
      toolbar: { title: "Theme", icon: "contrast", items: ["auto", "light", "dark"], dynamicTitle: true },
    },
    locale: {
      description: "Language of the elements' strings",
      toolbar: {
        title: "Language",
        icon: "globe",
        items: [
          { value: "en", title: "English" },
          { value: "ja", title: "日本語" },
          { value: "zh-Hans", title: "简体中文" },
        ],
        dynamicTitle: true,
      },
    },
    direction: {
      description: "Text direction",
      toolbar: {
        title: "Direction",
        icon: "transfer",
        items: [
          { value: "ltr", title: "Left to right" },
          { value: "rtl", title: "Right to left" },
        ],
        dynamicTitle: true,
      },
    },
  },
  initialGlobals: { theme: "auto", locale: "en", direction: "ltr" },
  parameters: {
    a11y: { test: "error" },
    docs: { source: { type: "dynamic" } },
  },
};

export default preview;
