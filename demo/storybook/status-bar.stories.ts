// Written by scripts/storybook-stories.ts from the gallery's "status-bar" stories (pnpm run stories); do not edit.
import { storyModules } from "../src/gallery/stories/index.js";
import { metaOf, storyOf } from "./adapter.js";

const module = storyModules.find((m) => m.id === "status-bar")!;

export default {
  ...metaOf(module),
  title: "pi-status-bar",
  component: "pi-status-bar",
  tags: ["autodocs"],
};

export const StyledStatuses = { ...storyOf(module, 0), name: "Styled statuses" };
export const LongTextEllipsis = { ...storyOf(module, 1), name: "Long text (ellipsis)" };
export const Story2000StatusBurst = { ...storyOf(module, 2), name: "2,000-status burst" };
export const CJKEmojiMarkup = { ...storyOf(module, 3), name: "CJK, emoji, markup" };
