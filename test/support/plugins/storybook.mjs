// The workshop as the browser tests open it: demo/.storybook built into demo/storybook-static/<engines> once a run
// (a folder per run's engines: runs of several engines can go side by side), or the one the test command's workshop
// step built for all its runs (PI_STORYBOOK_BUILT, scripts/storybook-build.mjs), before any
// browser starts when the run has the story tests (`{ prebuild: true }`), and command "storybook:build" returns the
// address the test runner serves it at, so a test page can open each story's frame as a same-origin iframe in every
// engine. Built before the browsers, not on the first engine's command: a command has 20 s to answer, and under load
// the build took longer (a fresh-clone run with one core kept busy lost the Firefox story tests to that).

import { buildStorybook, builtStorybook } from "../../../scripts/storybook-build.mjs";

const OUT = `storybook-static/${(process.env.ENGINES ?? "all").replace(/[^a-z,]/g, "").replace(/,/g, "-") || "all"}`;

export function storybookPlugin({ prebuild = false } = {}) {
  /** @type {Promise<{ base: string }> | undefined} */
  let built;
  const build = () => {
    // The test command builds it once for all its runs (its workshop step); a run on its own builds its own.
    const shared = builtStorybook();
    built ??= shared
      ? Promise.resolve({ base: `/demo/${shared}/` })
      : buildStorybook(OUT).then(() => ({ base: `/demo/${OUT}/` }));
    return built;
  };
  return {
    name: "pi-storybook",
    async serverStart() {
      if (prebuild) await build();
    },
    executeCommand({ command }) {
      if (command !== "storybook:build") return undefined;
      return build();
    },
  };
}
