// Written by scripts/storybook-stories.ts from the gallery's "extension-ui" stories (pnpm run stories); do not edit.
import { storyModules } from "../src/gallery/stories/index.js";
import { metaOf, storyOf } from "./adapter.js";

const module = storyModules.find((m) => m.id === "extension-ui")!;

export default {
  ...metaOf(module),
  title: "pi-extension-ui",
  component: "pi-extension-ui",
  tags: ["autodocs"],
};

export const ThreePendingDialogs = { ...storyOf(module, 0), name: "Three pending dialogs" };
export const ATimedDialogWaitingBehindAnother = { ...storyOf(module, 1), name: "A timed dialog waiting behind another" };
export const PromptWhenNothingIsPending = { ...storyOf(module, 2), name: "Prompt when nothing is pending" };
