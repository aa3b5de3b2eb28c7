// The elements' large lazy dependencies as a page built for users gets them: one prebuilt module each, bundled by
// esbuild (as the package's own bundles are, scripts/bundle.mjs) when the test runner starts, not dozens of files
// resolved, converted and compiled on the first request of a test that then waits for them. lowlight with its
// grammars (highlight.js ships CommonJS that esbuild converts) is the code block's highlighter; diff's word diff is
// the edit card's. The bundles are written to node_modules/.cache/pi-elements-test-deps and served from there for the
// bare imports the sources make.
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const OUT = "node_modules/.cache/pi-elements-test-deps";
/** The bare import the sources make → the file name of its bundle. */
const DEPENDENCIES = { lowlight: "lowlight.js", "diff/lib/diff/word.js": "diff-word.js" };

export function prebundledPlugin() {
  /** @type {Promise<void> | undefined} */
  let built;
  return {
    name: "pi-prebundled",
    async serverStart() {
      await mkdir(`${ROOT}${OUT}`, { recursive: true });
      built = build({
        absWorkingDir: `${ROOT}packages/elements`,
        entryPoints: Object.entries(DEPENDENCIES).map(([input, output]) => ({
          in: input,
          out: output.replace(/\.js$/, ""),
        })),
        outdir: `${ROOT}${OUT}`,
        bundle: true,
        format: "esm",
        platform: "browser",
        target: "es2022",
        logLevel: "warning",
      }).then(() => undefined);
      await built;
    },
    resolveImport({ source }) {
      const file = DEPENDENCIES[source];
      return file ? `/${OUT}/${file}` : undefined;
    },
  };
}
