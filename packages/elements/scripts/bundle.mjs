// The single-file bundle and per-element bundles, built from the compiled `dist` modules with esbuild: Lit (its
// production build), zod/mini (tree-shaken: the core imports it per schema module) and the core are inlined, CSS in
// templates is minified, and the output is minified ESM. Terser then compresses esbuild's output once more (two
// passes, safe transforms only): it inlines and folds what esbuild's single pass leaves, 0.7 KB of the gzipped
// bundle, and 0.13 KB more with function declarations hoisted to the top of their scope (where the language puts
// them anyway), which gives gzip longer repeats. Running terser on esbuild's unminified output instead is 0.5 KB larger, as esbuild's minifier also
// shortens `#private` names, which terser keeps.
import { readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { minify } from "terser";
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

/** Bundles one entry module in memory and returns the minified code. */
async function bundle(entry) {
  const result = await build({ ...options, entryPoints: [entry], write: false, outfile: "bundle.js" });
  const { code } = await minify(result.outputFiles[0].text, {
    module: true,
    ecma: 2022,
    compress: { passes: 2, hoist_funs: true },
    format: { comments: false },
  });
  if (code === undefined) throw new Error(`terser returned no code for ${entry}`);
  return code;
}

/** Builds dist/pi-elements.bundle.js, with its types: those of the entry module it is built from. */
export async function buildBundle() {
  writeFileSync(bundlePath, await bundle(join(distDir, "bundle.js")));
  writeFileSync(bundlePath.replace(/\.js$/, ".d.ts"), 'export * from "./bundle.js";\n');
}

/** Bundles one element's entry alone, in memory, and returns the code. */
export async function bundleElement(name) {
  return new TextEncoder().encode(await bundle(join(distDir, "elements", name, "define.js")));
}
