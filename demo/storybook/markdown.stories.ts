// Written by scripts/storybook-stories.ts from the gallery's "markdown" stories (pnpm run stories); do not edit.
import { storyModules } from "../src/gallery/stories/index.js";
import { metaOf, storyOf } from "./adapter.js";

const module = storyModules.find((m) => m.id === "markdown")!;

export default {
  ...metaOf(module),
  title: "pi-markdown",
  component: "pi-markdown",
  tags: ["autodocs"],
};

export const Plain = { ...storyOf(module, 0), name: "Plain" };
export const Code = { ...storyOf(module, 1), name: "Code" };
export const Streaming = { ...storyOf(module, 2), name: "Streaming" };
export const Hostile = { ...storyOf(module, 3), name: "Hostile" };
export const RTLAndCJK = { ...storyOf(module, 4), name: "RTL and CJK" };
