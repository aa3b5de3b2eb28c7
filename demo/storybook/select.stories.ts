// Written by scripts/storybook-stories.ts from the gallery's "select" stories (pnpm run stories); do not edit.
import { storyModules } from "../src/gallery/stories/index.js";
import { metaOf, storyOf } from "./adapter.js";

const module = storyModules.find((m) => m.id === "select")!;

export default {
  ...metaOf(module),
  title: "pi-select",
  component: "pi-select",
  tags: ["autodocs"],
};

export const Plain = { ...storyOf(module, 0), name: "Plain" };
export const Countdown = { ...storyOf(module, 1), name: "Countdown" };
export const LongList500 = { ...storyOf(module, 2), name: "Long list (500)" };
export const CJKAndEmoji = { ...storyOf(module, 3), name: "CJK and emoji" };
export const MarkupInText = { ...storyOf(module, 4), name: "Markup in text" };
export const ColoursAndLineBreaks = { ...storyOf(module, 5), name: "Colours and line breaks" };
export const EmptyList = { ...storyOf(module, 6), name: "Empty list" };
export const Modal = { ...storyOf(module, 7), name: "Modal" };
