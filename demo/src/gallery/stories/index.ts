/** Every story module, in sidebar order. */
import type { StoryModule } from "../story.js";
import { confirmStories, editorStories, inputStories, queueStories, selectStories } from "./dialogs.stories.js";
import { notificationStories, promptStories, statusStories, widgetStories } from "./display.stories.js";
import { sessionControlsStories } from "./session-controls.stories.js";

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
  sessionControlsStories,
];
