// Written by scripts/storybook-stories.ts from the gallery's "confirm" stories (pnpm run stories); do not edit.
import { storyModules } from "../src/gallery/stories/index.js";
import { metaOf, storyOf } from "./adapter.js";

const module = storyModules.find((m) => m.id === "confirm")!;

export default {
  ...metaOf(module),
  title: "pi-confirm",
  component: "pi-confirm",
  tags: ["autodocs"],
};

export const Plain = { ...storyOf(module, 0), name: "Plain" };
export const PermissionGateCountdown = { ...storyOf(module, 1), name: "Permission gate (countdown)" };
export const JapaneseAndChinese = { ...storyOf(module, 2), name: "Japanese and Chinese" };
export const MarkupInText = { ...storyOf(module, 3), name: "Markup in text" };
export const Modal = { ...storyOf(module, 4), name: "Modal" };
