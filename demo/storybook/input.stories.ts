// Written by scripts/storybook-stories.ts from the gallery's "input" stories (pnpm run stories); do not edit.
import { storyModules } from "../src/gallery/stories/index.js";
import { metaOf, storyOf } from "./adapter.js";

const module = storyModules.find((m) => m.id === "input")!;

export default {
  ...metaOf(module),
  title: "pi-input",
  component: "pi-input",
  tags: ["autodocs"],
};

export const Plain = { ...storyOf(module, 0), name: "Plain" };
export const Countdown = { ...storyOf(module, 1), name: "Countdown" };
export const IMEJapanese = { ...storyOf(module, 2), name: "IME (Japanese)" };
export const MarkupInText = { ...storyOf(module, 3), name: "Markup in text" };
