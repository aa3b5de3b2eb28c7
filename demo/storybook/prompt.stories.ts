// Written by scripts/storybook-stories.ts from the gallery's "prompt" stories (pnpm run stories); do not edit.
import { storyModules } from "../src/gallery/stories/index.js";
import { metaOf, storyOf } from "./adapter.js";

const module = storyModules.find((m) => m.id === "prompt")!;

export default {
  ...metaOf(module),
  title: "pi-prompt",
  component: "pi-prompt",
  tags: ["autodocs"],
};

export const Idle = { ...storyOf(module, 0), name: "Idle" };
export const FilledBySetEditorText = { ...storyOf(module, 1), name: "Filled by set_editor_text" };
export const SlashCommandCompletion = { ...storyOf(module, 2), name: "Slash-command completion" };
export const WhileTheAgentStreams = { ...storyOf(module, 3), name: "While the agent streams" };
export const QueuedMessagesPi1XTakeBack = { ...storyOf(module, 4), name: "Queued messages (pi 1.x: take back)" };
export const QueuedMessagesPi0731 = { ...storyOf(module, 5), name: "Queued messages (pi 0.73.1)" };
export const Retrying2Of3 = { ...storyOf(module, 6), name: "Retrying (2 of 3)" };
