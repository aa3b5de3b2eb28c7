// Servers and commands the browser tests need, started with the test runner and stopped with it. Each registers
// itself here; tests reach them through `executeServerCommand`.

import { crossOriginPlugin } from "./plugins/cross-origin.mjs";
import { enginePlugin } from "./plugins/engine.mjs";
import { imePlugin } from "./plugins/ime.mjs";
import { prebundledPlugin } from "./plugins/prebundled.mjs";
import { realPiPlugin } from "./plugins/real-pi.mjs";
import { screenshotPlugin } from "./plugins/screenshot.mjs";
import { storybookPlugin } from "./plugins/storybook.mjs";
import { touchPlugin } from "./plugins/touch.mjs";
import { wsServerPlugin } from "./plugins/ws-server.mjs";
/** @param {{ storybook?: boolean }} [options] `storybook`: the run has the story tests (the workshop is built first). */
export function testServerPlugins({ storybook = false } = {}) {
  return [
    enginePlugin(),
    screenshotPlugin(),
    imePlugin(),
    touchPlugin(),
    wsServerPlugin(),
    crossOriginPlugin(),
    realPiPlugin(),
    prebundledPlugin(),
    storybookPlugin({ prebuild: storybook }),
  ];
}
