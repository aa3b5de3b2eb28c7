// Written by scripts/storybook-stories.ts from the gallery's "widget-slot" stories (pnpm run stories); do not edit.
import { storyModules } from "../src/gallery/stories/index.js";
import { metaOf, storyOf } from "./adapter.js";

const module = storyModules.find((m) => m.id === "widget-slot")!;

export default {
  ...metaOf(module),
  title: "pi-widget-slot",
  component: "pi-widget-slot",
  tags: ["autodocs"],
};

export const AboveAndBelow = { ...storyOf(module, 0), name: "Above and below" };
export const Over10LinesFolds = { ...storyOf(module, 1), name: "Over 10 lines (folds)" };
export const LongLinesWrapMarkupStaysText = { ...storyOf(module, 2), name: "Long lines wrap; markup stays text" };
