// Written by scripts/storybook-stories.ts from the gallery's "notifications" stories (pnpm run stories); do not edit.
import { storyModules } from "../src/gallery/stories/index.js";
import { metaOf, storyOf } from "./adapter.js";

const module = storyModules.find((m) => m.id === "notifications")!;

export default {
  ...metaOf(module),
  title: "pi-notifications",
  component: "pi-notifications",
  tags: ["autodocs"],
};

export const InfoWarningError = { ...storyOf(module, 0), name: "Info, warning, error" };
export const ManyNMore = { ...storyOf(module, 1), name: "Many (+N more)" };
export const FailuresACommandAnExtension = { ...storyOf(module, 2), name: "Failures: a command, an extension" };
export const CJKAndMarkup = { ...storyOf(module, 3), name: "CJK and markup" };
