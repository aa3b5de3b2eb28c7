/** Every story module, in sidebar order. */
import type { StoryModule } from "../story.js";
import { codeBlockStories } from "./code-block.stories.js";
import { confirmStories, editorStories, inputStories, queueStories, selectStories } from "./dialogs.stories.js";
import { notificationStories, promptStories, statusStories, widgetStories } from "./display.stories.js";
import { markdownStories } from "./markdown.stories.js";
import { sessionControlsStories } from "./session-controls.stories.js";
import { toolCardStories } from "./tool-cards.stories.js";
import { transcriptStories } from "./transcript.stories.js";

export const storyModules: StoryModule[] = [
  selectStories,
  confirmStories,
  inputStories,
  editorStories,
  queueStories,
  statusStories,
  widgetStories,
  notificationStories,
  promptStories,
  markdownStories,
  codeBlockStories,
  toolCardStories,
  transcriptStories,
  sessionControlsStories,
];
