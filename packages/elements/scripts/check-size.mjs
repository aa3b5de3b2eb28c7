// CI size ratchet: the bundle may only shrink. Run last by the root `test` command (`pnpm run size`), after the
// build. The goal is 24 KB and its cap 32 KB; the bundle is above the cap (36,728 bytes min + gzip -9 when
// last measured, down from 38,235 after zod was slimmed: unions by table, a custom bound check, literal sets). Until
// it fits, CEILING is that measurement rounded up to 256 bytes, so CI fails on any growth, and every run prints how
// far it is from the cap. What costs what, shares of the whole: element logic 7.7K, Lit 6.1K, zod/mini 5.3K, element
// CSS 3.8K, core session 3.3K, dialog base + controllers 2.7K, core transports 1.8K, strings 1.4K, ANSI 1.2K,
// @lit/context 1.1K, core schemas 1.0K, codec 0.5K. Lower CEILING whenever the bundle shrinks; never raise it.
import { bundleGzipBytes } from "./measure-size.mjs";

export const GOAL = 24 * 1024;
/** The most the issue allows. */
export const CAP = 32 * 1024;
/** What CI enforces today: the measured size, rounded up to 256 bytes. */
export const CEILING = 33_536;

const bytes = bundleGzipBytes();
const line = `pi-elements.bundle.js: ${bytes} bytes min+gzip -9 (CI ceiling ${CEILING}, cap ${CAP}, goal ${GOAL})`;
if (bytes > CEILING) {
  console.error(`${line}: over the ceiling by ${bytes - CEILING} bytes`);
  process.exit(1);
}
console.log(line);
if (bytes > CAP) console.log(`  still ${bytes - CAP} bytes over the 32 KB cap (issue #3 keeps the size budget open)`);
