// Written by scripts/storybook-stories.ts from the gallery's "tool-card" stories (pnpm run stories); do not edit.
import { storyModules } from "../src/gallery/stories/index.js";
import { metaOf, storyOf } from "./adapter.js";

const module = storyModules.find((m) => m.id === "tool-card")!;

export default {
  ...metaOf(module),
  title: "pi-tool-card",
  component: "pi-tool-card",
  tags: ["autodocs"],
};

export const BashStreamingRunningDone = { ...storyOf(module, 0), name: "bash: streaming, running, done" };
export const BashLongAndFailingOutput = { ...storyOf(module, 1), name: "bash: long and failing output" };
export const ReadWriteEdit = { ...storyOf(module, 2), name: "read, write, edit" };
export const GrepFindLs = { ...storyOf(module, 3), name: "grep, find, ls" };
export const AnyOtherToolAndAPageSRenderer = { ...storyOf(module, 4), name: "Any other tool, and a page's renderer" };
export const HostileOutput = { ...storyOf(module, 5), name: "Hostile output" };
