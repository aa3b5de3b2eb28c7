// The workshop as the browser tests open it: command "storybook:build" builds demo/.storybook into
// demo/storybook-static (once a run, whichever engine asks first) and returns the address the test runner serves it
// at, so a test page can open each story's frame as a same-origin iframe in every engine.

import { buildStorybook } from "../../../scripts/storybook-build.mjs";

const OUT = "storybook-static";

export function storybookPlugin() {
  /** @type {Promise<{ base: string }> | undefined} */
  let built;
  return {
    name: "pi-storybook",
    executeCommand({ command }) {
      if (command !== "storybook:build") return undefined;
      built ??= buildStorybook(OUT).then(() => ({ base: `/demo/${OUT}/` }));
      return built;
    },
  };
}
