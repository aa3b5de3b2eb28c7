// Written by scripts/storybook-stories.ts from the gallery's "session-controls" stories (pnpm run stories); do not edit.
import { storyModules } from "../src/gallery/stories/index.js";
import { metaOf, storyOf } from "./adapter.js";

const module = storyModules.find((m) => m.id === "session-controls")!;

export default {
  ...metaOf(module),
  title: "Session controls",
  tags: ["autodocs"],
};

export const Footer = { ...storyOf(module, 0), name: "Footer" };
export const WhilePiWorksContextNearlyFull = { ...storyOf(module, 1), name: "While pi works, context nearly full" };
export const AModelThatDoesNotReason = { ...storyOf(module, 2), name: "A model that does not reason" };
export const AFreshSession = { ...storyOf(module, 3), name: "A fresh session" };
export const JustCompacted = { ...storyOf(module, 4), name: "Just compacted" };
export const PiRefuses = { ...storyOf(module, 5), name: "pi refuses" };
