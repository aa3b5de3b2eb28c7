// Written by scripts/storybook-stories.ts from the gallery's "transcript" stories (pnpm run stories); do not edit.
import { storyModules } from "../src/gallery/stories/index.js";
import { metaOf, storyOf } from "./adapter.js";

const module = storyModules.find((m) => m.id === "transcript")!;

export default {
  ...metaOf(module),
  title: "pi-transcript",
  component: "pi-transcript",
  tags: ["autodocs"],
};

export const AConversation = { ...storyOf(module, 0), name: "A conversation" };
export const Streaming = { ...storyOf(module, 1), name: "Streaming" };
export const Notices = { ...storyOf(module, 2), name: "Notices" };
export const Errors = { ...storyOf(module, 3), name: "Errors" };
export const ToolOutputExpanded = { ...storyOf(module, 4), name: "Tool output expanded" };
export const ALongHistory = { ...storyOf(module, 5), name: "A long history" };
