// Written by scripts/storybook-stories.ts from the gallery's "code-block" stories (pnpm run stories); do not edit.
import { storyModules } from "../src/gallery/stories/index.js";
import { metaOf, storyOf } from "./adapter.js";

const module = storyModules.find((m) => m.id === "code-block")!;

export default {
  ...metaOf(module),
  title: "pi-code-block",
  component: "pi-code-block",
  tags: ["autodocs"],
};

export const Languages = { ...storyOf(module, 0), name: "Languages" };
export const Streaming = { ...storyOf(module, 1), name: "Streaming" };
export const AWideLine = { ...storyOf(module, 2), name: "A wide line" };
