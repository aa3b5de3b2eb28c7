// Written by scripts/storybook-stories.ts from the gallery's "editor" stories (pnpm run stories); do not edit.
import { storyModules } from "../src/gallery/stories/index.js";
import { metaOf, storyOf } from "./adapter.js";

const module = storyModules.find((m) => m.id === "editor")!;

export default {
  ...metaOf(module),
  title: "pi-editor",
  component: "pi-editor",
  tags: ["autodocs"],
};

export const Plain = { ...storyOf(module, 0), name: "Plain" };
export const ExactTextU2028TabsEmoji = { ...storyOf(module, 1), name: "Exact text (U+2028, tabs, emoji)" };
export const MarkupInText = { ...storyOf(module, 2), name: "Markup in text" };
