// CI size ratchet: the bundle may only shrink. Run last by the root `test` command (`pnpm run size`), after the
// build. The goal is 24 KB and its cap 32 KB. The bundle fits the cap (32,350 bytes min + gzip -9 when last
// measured, down from 36,766), so CEILING is that measurement rounded up to 256 bytes: CI fails on any growth. The goal
// is out of reach with these requirements; what costs what, shares of the whole (gzip): Lit 6.0K, zod/mini (objects,
// optional, unknown) 4.4K, the rest of the core (session, store, WebSocket transport, codec, schemas) 7.0K,
// @lit/context 1.2K, and the elements 13.8K: their logic 9.3K, CSS 3.3K, Japanese and Chinese strings 1.2K. Lower
// CEILING whenever the bundle shrinks; never raise it above CAP.
import { bundleGzipBytes } from "./measure-size.mjs";

export const GOAL = 24 * 1024;
/** The most the issue allows. */
export const CAP = 32 * 1024;
/** What CI enforces today: the measured size, rounded up to 256 bytes. */
export const CEILING = 32_512;

if (CEILING > CAP) throw new Error(`CEILING ${CEILING} is above the issue's cap of ${CAP} bytes`);

const bytes = bundleGzipBytes();
const line = `pi-elements.bundle.js: ${bytes} bytes min+gzip -9 (CI ceiling ${CEILING}, cap ${CAP}, goal ${GOAL})`;
if (bytes > CEILING) {
  console.error(`${line}: over the ceiling by ${bytes - CEILING} bytes`);
  process.exit(1);
}
console.log(`${line}: ${CAP - bytes} bytes under the cap, ${bytes - GOAL} over the goal`);
