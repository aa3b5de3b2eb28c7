// CI size ceiling for the single-file bundle, min + gzip -9. Run last by the root `test` command (`pnpm run size`),
// after the build.
//
// The rule: CEILING is the bundle's measured size plus at least MARGIN, rounded up to a multiple of STEP, so CI
// catches an unexpected jump without failing on every small change. To set it after a change that legitimately
// grows or shrinks the bundle, build, then run `node packages/elements/scripts/check-size.mjs --suggest`: it prints
// the ceiling the rule gives for the bundle as built. The measured figures, and how they compare with other
// libraries, are in bench/results/size.json (`pnpm bench size`) and the README.
import { bundleGzipBytes } from "./measure-size.mjs";

/** The least headroom above the measured size. */
export const MARGIN = 1024;
/** Ceilings are multiples of this. */
export const STEP = 256;
/** What CI enforces: the rule applied to the bundle as last measured. */
export const CEILING = 46_336;

/** The ceiling the rule gives for a bundle of `bytes`. */
export const ceilingFor = (bytes) => Math.ceil((bytes + MARGIN) / STEP) * STEP;

const bytes = bundleGzipBytes();
const rule = `measured + ${MARGIN}, rounded up to ${STEP}`;
if (process.argv.includes("--suggest")) {
  console.log(`pi-elements.bundle.js: ${bytes} bytes min+gzip -9; CEILING by the rule (${rule}): ${ceilingFor(bytes)}`);
  process.exit(0);
}
const line = `pi-elements.bundle.js: ${bytes} bytes min+gzip -9 (CI ceiling ${CEILING})`;
if (bytes > CEILING) {
  console.error(`${line}: over the ceiling by ${bytes - CEILING} bytes. If the growth is intended, set CEILING by`);
  console.error(`the rule (${rule}): node packages/elements/scripts/check-size.mjs --suggest`);
  process.exit(1);
}
console.log(`${line}: ${CEILING - bytes} bytes of headroom`);
