/**
 * What every story shares: the elements' manifest (the docs pages' tables and the controls of each element's own
 * attributes), the toolbar's theme, language and direction, and the elements' events in the actions panel.
 */
import "@pi-elements/elements/all.js";
import "@pi-elements/elements/elements/model-picker.js";
import "@pi-elements/elements/elements/session-actions.js";
import "@pi-elements/elements/elements/session-stats.js";
import "@pi-elements/elements/elements/thinking-level.js";
import "../../packages/elements/src/transcript.js";
import { type Decorator, type Preview, setCustomElementsManifest } from "@storybook/web-components-vite";
import { html } from "lit";
import { withActions } from "storybook/actions/decorator";
import manifest from "../../packages/elements/custom-elements.json" with { type: "json" };
import { followDocsGlobals } from "./docs-frames.js";

setCustomElementsManifest(manifest);
followDocsGlobals();

/** The toolbar's choices, on the story's stage as the gallery sets them. */
const withPage: Decorator = (story, context) => {
  const { theme, locale, direction } = context.globals as { theme?: string; locale?: string; direction?: string };
  const scheme = theme && theme !== "auto" ? `--pi-color-scheme: ${theme}; color-scheme: ${theme}` : "";
  document.documentElement.style.colorScheme = theme && theme !== "auto" ? theme : "light dark";
  return html`<div class="stage" lang=${locale ?? "en"} dir=${direction ?? "ltr"} style=${scheme}>${story()}</div>`;
};

const preview: Preview = {
  decorators: [withPage, withActions],
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
    // Every event the elements fire, logged in the actions panel (the JSON the agent got is logged beside them).
    actions: {
      handles: [
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
      ],
    },
    a11y: { test: "error" },
    docs: { source: { type: "dynamic" } },
  },
};

export default preview;
