// CI size ceiling for the single-file bundle, min + gzip -9. Run last by the root `test` command (`pnpm run size`),
// after the build.
//
// The rule: CEILING is the bundle's measured size plus at least MARGIN, rounded up to a multiple of STEP, so CI
// catches an unexpected jump without failing on every small change. To set it after a change that legitimately
// grows or shrinks the bundle, build, then run `node packages/elements/scripts/check-size.mjs --suggest`: it prints
// the ceiling the rule gives for the bundle as built. The measured figures, and how they compare with other
// libraries, are in bench/results/size.json (`pnpm bench size`) and the README.
import { bundleGzipBytes, conversationBundleGzipBytes } from "./measure-size.mjs";

/** The least headroom above the measured size. */
export const MARGIN = 1024;
/** Ceilings are multiples of this. */
export const STEP = 256;
/** What CI enforces: the rule applied to the bundle as last measured. */
export const CEILING = 52_992;

/**
 * The same rule for each conversation bundle (scripts/bundle.mjs): what a page loads before anything renders
 * (`eager`), and what it loads lazily (`lazy`).
 */
export const CONVERSATION_CEILINGS = {
  "pi-transcript.bundle": { eager: 77_056, lazy: 51_200 },
  "pi-elements.full.bundle": { eager: 119_552, lazy: 51_200 },
};

/** The ceiling the rule gives for a bundle of `bytes`. */
export const ceilingFor = (bytes) => Math.ceil((bytes + MARGIN) / STEP) * STEP;

const bytes = bundleGzipBytes();
const conversation = conversationBundleGzipBytes();
const rule = `measured + ${MARGIN}, rounded up to ${STEP}`;
if (process.argv.includes("--suggest")) {
  console.log(`pi-elements.bundle.js: ${bytes} bytes min+gzip -9; CEILING by the rule (${rule}): ${ceilingFor(bytes)}`);
  for (const [name, size] of Object.entries(conversation)) {
    console.log(
      `${name}.js: ${size.eager} bytes before rendering, ${size.lazy} lazy; CONVERSATION_CEILINGS by the rule: ` +
        `{ eager: ${ceilingFor(size.eager)}, lazy: ${ceilingFor(size.lazy)} }`,
    );
  }
  process.exit(0);
}
let failed = false;
const check = (what, measured, ceiling) => {
  const line = `${what}: ${measured} bytes min+gzip -9 (CI ceiling ${ceiling})`;
  if (measured > ceiling) {
    console.error(`${line}: over the ceiling by ${measured - ceiling} bytes.`);
    failed = true;
  } else console.log(`${line}: ${ceiling - measured} bytes of headroom`);
};
check("pi-elements.bundle.js", bytes, CEILING);
for (const [name, size] of Object.entries(conversation)) {
  const ceilings = CONVERSATION_CEILINGS[name];
  if (!ceilings) throw new Error(`no ceiling for ${name}`);
  check(`${name}.js before rendering`, size.eager, ceilings.eager);
  check(`${name}.js lazy chunks`, size.lazy, ceilings.lazy);
}
if (failed) {
  console.error(`If the growth is intended, set the ceilings by the rule (${rule}):`);
  console.error("node packages/elements/scripts/check-size.mjs --suggest");
  process.exit(1);
}
