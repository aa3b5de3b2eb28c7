// CI size ceiling: the bundle may only shrink. Run last by the root `test` command (`pnpm run size`), after the
// build. The goal is 24 KB; the ceiling is the most the issue allows (32 KB) because the bundle measured 37,740
// bytes when this was written: see the closing note of issue #3 for what costs what. Lower CEILING as the bundle
// shrinks; never raise it.
import { bundleGzipBytes } from "./measure-size.mjs";

export const GOAL = 24 * 1024;
export const CEILING = 32 * 1024;

const bytes = bundleGzipBytes();
const line = `pi-elements.bundle.js: ${bytes} bytes min+gzip -9 (ceiling ${CEILING}, goal ${GOAL})`;
if (bytes > CEILING) {
  console.error(`${line}: over the ceiling by ${bytes - CEILING} bytes`);
  process.exit(1);
}
console.log(line);
