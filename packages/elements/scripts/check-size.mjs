// CI size ceiling: the bundle may only shrink. Run last by the root `test` command (`pnpm run size`), after the
// build. The goal is 24 KB; the ceiling is the most the issue allows (32 KB), because the bundle is still above it:
// 36,728 bytes when last measured (38,235 on the same element code before zod was slimmed down: unions by
// table, a custom bound check, literal sets; see packages/core/src/protocol/zod.ts). What costs what, min + gzip,
// shares of the whole: element logic 7.7K, Lit 6.1K, zod/mini 5.3K, element CSS 3.8K, core session 3.3K, dialog base
// + controllers 2.7K, core transports 1.8K, strings 1.4K, ANSI 1.2K, @lit/context 1.1K, core schemas 1.0K, codec 0.5K.
// When the bundle fits, set CEILING to the measured size rounded up to the next 256 bytes (the goal once reached);
// never raise it.
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
