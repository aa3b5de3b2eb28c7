// The single-file bundle and per-element bundles, built from the compiled `dist` modules with esbuild: Lit (its
// production build), zod/mini and the core are inlined, and the output is minified ESM. Templates (html`…`, css`…`)
// ship as written: esbuild minifies the JavaScript around them and leaves their text alone, so what Lit parses is
// exactly what the sources give it. Terser then compresses esbuild's output in one pass with its default, safe
// transforms. test/browser/bundle-parity.test.ts checks that the bundle renders and looks as the sources do.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
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

/** Names of the element folders (`prompt`, `extension-ui`, …); each has a `define.js` entry. */
export function elementNames() {
  return readdirSync(join(distDir, "elements"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/**
 * The element folders that `extension-ui.js` registers, and so the single-file bundle: the extension UI's. The
 * conversation's elements (`tool-card`, …) and the session controls stay out of the bundle, so that it does not grow
 * for them (`all.js` has every element).
 */
export function bundledElementNames() {
  const all = readFileSync(join(distDir, "extension-ui.js"), "utf8");
  return elementNames().filter((name) => all.includes(`./elements/${name}/define.js`));
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

/**
 * Writes `text` to `path` only if it differs from what is there, and then whole: into a file beside it, renamed over
 * it. A page loading the file while a build runs (the e2e tests run the README's demo command, which builds, beside
 * the browser tests that load these files) gets the old file or the new one, never a half-written one.
 */
function writeWhole(path, text) {
  if (existsSync(path) && readFileSync(path, "utf8") === text) return;
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}

/** Builds dist/pi-elements.bundle.js, with its types: those of the entry module it is built from. */
export async function buildBundle() {
  writeWhole(bundlePath, await bundle(join(distDir, "bundle.js")));
  writeWhole(bundlePath.replace(/\.js$/, ".d.ts"), 'export * from "./bundle.js";\n');
}

/** Bundles one element's entry alone, in memory, and returns the code. */
export async function bundleElement(name) {
  return new TextEncoder().encode(await bundle(join(distDir, "elements", name, "define.js")));
}

/**
 * The no-build files beyond the extension UI's single file, each an entry module of `dist/` bundled on its own (Lit,
 * zod/mini and the core inlined), with what it loads lazily (the highlighter's languages, the word diff) split off
 * into `dist/chunks/`, which the entry imports from beside itself when first needed:
 * - `pi-transcript.bundle.js`: the conversation's elements (`transcript.js`): pi-transcript, pi-markdown,
 *   pi-code-block, pi-tool-card;
 * - `pi-elements.full.bundle.js`: a complete pi web UI in one file (`full.js`): every element, the conversation's
 *   and the session controls with the extension UI's, plus the core's session and transports.
 * A page loads one of the two full bundles (extension UI, or everything) and never both: each has its own Lit.
 */
export const CONVERSATION_BUNDLES = [
  { entry: "transcript.js", name: "pi-transcript.bundle" },
  { entry: "full.js", name: "pi-elements.full.bundle" },
];
export const chunksDir = join(distDir, "chunks");
/** The highlighter's worker's file name, as highlighter.ts names it. */
export const HIGHLIGHT_WORKER = "highlight-worker.js";

/**
 * Builds the conversation bundles and their lazy chunks; chunks of an earlier build that this one did not write are
 * removed from dist/chunks/ at the end (a chunk's name has its content's hash). Returns the files written.
 */
export async function buildConversationBundles() {
  const written = [];
  for (const { entry, name } of CONVERSATION_BUNDLES) {
    const result = await build({
      ...options,
      entryPoints: { [name]: join(distDir, entry) },
      splitting: true,
      outdir: distDir,
      entryNames: "[name]",
      chunkNames: "chunks/[name]-[hash]",
      write: false,
    });
    for (const file of result.outputFiles) {
      mkdirSync(dirname(file.path), { recursive: true });
      writeWhole(file.path, await compress(file.text, file.path));
      written.push(file.path);
      // The highlighter's worker, which the code names by `new URL("./highlight-worker.js", import.meta.url)` (esbuild
      // leaves the worker alone): bundled on its own beside each file that names it.
      if (file.text.includes(HIGHLIGHT_WORKER)) {
        const worker = join(dirname(file.path), HIGHLIGHT_WORKER);
        if (!written.includes(worker)) {
          writeWhole(worker, await bundle(join(distDir, "elements", "code-block", HIGHLIGHT_WORKER)));
          written.push(worker);
        }
      }
    }
    writeWhole(join(distDir, `${name}.d.ts`), `export * from "./${entry}";\n`);
  }
  for (const name of readdirSync(chunksDir)) {
    if (!written.includes(join(chunksDir, name))) rmSync(join(chunksDir, name), { force: true });
  }
  return written;
}

/**
 * A conversation bundle's files: the entry and the chunks it imports statically (what a page loads before anything
 * renders), and the chunks it imports only dynamically or runs as a worker (loaded when first needed), as paths
 * under dist/.
 */
export function conversationBundleFiles(name) {
  const eager = new Set();
  const lazy = new Set();
  const visit = (file, dynamic) => {
    const code = readFileSync(file, "utf8");
    const dir = dirname(file);
    for (const match of code.matchAll(/(?:\bimport\s*\(\s*|\bfrom\s*|\bimport\s*)"(\.{1,2}\/[^"]+\.js)"/g)) {
      const target = join(dir, match[1]);
      const isDynamic = match[0].includes("(");
      if (!isDynamic && !dynamic) {
        if (!eager.has(target)) {
          eager.add(target);
          visit(target, false);
        }
      } else if (!eager.has(target) && !lazy.has(target)) {
        lazy.add(target);
        visit(target, true);
      }
    }
    // A worker's file (`new URL("./highlight-worker.js", import.meta.url)`): loaded when first needed.
    for (const match of code.matchAll(/\bnew URL\(\s*"(\.{1,2}\/[^"]+\.js)"/g)) {
      const target = join(dir, match[1]);
      if (!eager.has(target) && !lazy.has(target)) {
        lazy.add(target);
        visit(target, true);
      }
    }
  };
  const entry = join(distDir, `${name}.js`);
  eager.add(entry);
  visit(entry, false);
  for (const file of eager) lazy.delete(file);
  return { eager: [...eager], lazy: [...lazy] };
}
