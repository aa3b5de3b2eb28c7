// The single-file bundle and per-element bundles, built from the compiled `dist` modules with esbuild: Lit (its
// production build), zod/mini (tree-shaken: the core imports it per schema module) and the core are inlined, CSS in templates is minified, and the output is minified ESM.
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { minifyTemplatesPlugin } from "./minify-templates.mjs";

export const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
export const distDir = join(packageDir, "dist");
export const bundlePath = join(distDir, "pi-elements.bundle.js");

const options = {
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: true,
  // Lit's exports map serves its dev build only under "development"; ask for production explicitly.
  conditions: ["production"],
  legalComments: "none",
  plugins: [minifyTemplatesPlugin()],
  logLevel: "warning",
};

/** Names of the element folders (`prompt`, `extension-ui`, …); each has a `define.js` entry. */
export function elementNames() {
  return readdirSync(join(distDir, "elements"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** Builds dist/pi-elements.bundle.js. */
export async function buildBundle() {
  await build({ ...options, entryPoints: [join(distDir, "bundle.js")], outfile: bundlePath });
}

/** Bundles one element's entry alone, in memory, and returns the code. */
export async function bundleElement(name) {
  const result = await build({
    ...options,
    entryPoints: [join(distDir, "elements", name, "define.js")],
    write: false,
    outfile: "element.js",
  });
  return result.outputFiles[0].contents;
}
