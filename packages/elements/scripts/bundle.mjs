// The single-file bundle and per-element bundles, built from the compiled `dist` modules with esbuild: Lit (its
// production build), zod/mini and the core are inlined, and the output is minified ESM. Templates (html`…`, css`…`)
// ship as written: esbuild minifies the JavaScript around them and leaves their text alone, so what Lit parses is
// exactly what the sources give it. Terser then compresses esbuild's output in one pass with its default, safe
// transforms. test/browser/bundle-parity.test.ts checks that the bundle renders and looks as the sources do.
import { readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { minify } from "terser";

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
  logLevel: "warning",
};

/**
 * The element folders left out of the single-file bundle (src/bundle.ts, src/all.ts): the session controls, which read
 * the conversation store (`@pi-elements/core/conversation`), so a page showing only the extension UI does not pay
 * for them. Each is still its own entry (`@pi-elements/elements/elements/<name>.js`).
 */
export const UNBUNDLED = new Set(["model-picker", "session-actions", "session-stats", "thinking-level"]);

/** The element folders the single-file bundle defines: every one but `UNBUNDLED`. */
export function bundledElementNames() {
  return elementNames().filter((name) => !UNBUNDLED.has(name));
}

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
  return compress(result.outputFiles[0].text, entry);
}

/** The one terser pass over esbuild's output. */
async function compress(source, name) {
  const { code } = await minify(source, { module: true, ecma: 2022, format: { comments: false } });
  if (code === undefined) throw new Error(`terser returned no code for ${name}`);
  return code;
}

/**
 * Bundles the modules named by `specifiers` (each imported for its side effects, as a page would load them),
 * resolved from `resolveDir`, exactly as the elements' bundle is built, and returns the code. For comparing other
 * libraries' components with ours in bench/size.ts.
 */
export async function bundleModules(specifiers, resolveDir) {
  const contents = specifiers.map((specifier) => `import ${JSON.stringify(specifier)};`).join("\n");
  const result = await build({
    ...options,
    stdin: { contents, resolveDir, loader: "js", sourcefile: "entry.js" },
    write: false,
    outfile: "bundle.js",
  });
  return compress(result.outputFiles[0].text, specifiers.join(", "));
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
