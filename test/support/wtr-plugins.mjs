// Servers the browser tests need, started with the test runner and stopped with it. Each registers
// itself here; tests reach them through `executeServerCommand`.

import { crossOriginPlugin } from "./plugins/cross-origin.mjs";
import { imePlugin } from "./plugins/ime.mjs";
import { screenshotPlugin } from "./plugins/screenshot.mjs";
import { touchPlugin } from "./plugins/touch.mjs";
import { wsServerPlugin } from "./plugins/ws-server.mjs";
export function testServerPlugins() {
  return [screenshotPlugin(), imePlugin(), touchPlugin(), wsServerPlugin(), crossOriginPlugin()];
}
