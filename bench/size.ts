/**
 * What users pay for the elements, and what they would pay for comparable components from two well-known Lit-based
 * libraries, measured in the same run with the same pipeline (packages/elements/scripts/bundle.mjs: esbuild with
 * Lit's production build, minified ESM, one terser pass; then gzip -9):
 * - `bundleGzipBytes`: the single-file bundle (every element, Lit, @lit/context, the core, zod/mini);
 * - `perElement`: each element's entry bundled alone;
 * - `anchors`: for each library, the components that do what ours do (dialog, select, text input, multi-line text,
 *   alert where the library has one), bundled together, plus the theme style sheet a page must load for them;
 * - `bundleToLightestAnchor`: our bundle ÷ the lightest anchor's set. Goal: ≤ 0.8.
 * Builds the TypeScript and the bundle first, so the figures are for the tree as it is. Writes size.json.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { transform } from "esbuild";

interface BundleScripts {
  buildBundle(): Promise<void>;
  bundleModules(specifiers: string[], resolveDir: string): Promise<string>;
}
interface MeasureScripts {
  gzipSize(bytes: Uint8Array | string): number;
  bundleGzipBytes(): number;
  perElementGzipBytes(): Promise<Record<string, number>>;
}

/** One library's comparable set: modules a page imports, and a style sheet (a path in the package) it must load. */
interface AnchorSet {
  package: string;
  /** What each of our elements is matched with. */
  components: string[];
  modules: string[];
  styleSheet?: string;
}

export const ANCHOR_SETS: AnchorSet[] = [
  {
    package: "@material/web",
    // Material has no alert component; its text field is both the single-line and the multi-line input.
    components: ["md-dialog", "md-outlined-select", "md-select-option", "md-outlined-text-field"],
    modules: [
      "@material/web/dialog/dialog.js",
      "@material/web/select/outlined-select.js",
      "@material/web/select/select-option.js",
      "@material/web/textfield/outlined-text-field.js",
    ],
  },
  {
    package: "@shoelace-style/shoelace",
    components: ["sl-dialog", "sl-select", "sl-option", "sl-input", "sl-textarea", "sl-alert"],
    modules: ["dialog", "select", "option", "input", "textarea", "alert"].map(
      (name) => `@shoelace-style/shoelace/dist/components/${name}/${name}.js`,
    ),
    // Shoelace's components take their colours, spacing and type from the theme's custom properties.
    styleSheet: "dist/themes/light.css",
  },
];

/** The goal: the whole bundle at most this share of the lightest anchor's comparable set. */
export const GOAL_RATIO = 0.8;

export interface AnchorFigures {
  version: string;
  components: string[];
  /** The components' JavaScript, bundled and minified as ours, gzip -9. */
  scriptGzipBytes: number;
  /** The style sheet the components need, minified by esbuild, gzip -9 (0 when none). */
  styleSheetGzipBytes: number;
  /** What a page pays: script + style sheet. */
  gzipBytes: number;
  /** Our bundle ÷ this set. */
  bundleRatio: number;
}

export interface SizeFigures {
  bundleGzipBytes: number;
  perElement: Record<string, number>;
  anchors: Record<string, AnchorFigures>;
  lightestAnchor: string;
  bundleToLightestAnchor: number;
  goalBundleToLightestAnchor: number;
}

export const goals = { bundleToLightestAnchor: { max: GOAL_RATIO } };

const root = fileURLToPath(new URL("..", import.meta.url));
const require = createRequire(import.meta.url);

/** A file of an installed package (root devDependencies), whatever the package's exports map lists. */
const packageFile = (name: string, file: string) => join(root, "node_modules", name, file);

function versionOf(name: string): string {
  return (JSON.parse(readFileSync(packageFile(name, "package.json"), "utf8")) as { version: string }).version;
}

async function measureAnchor(set: AnchorSet, bundleBytes: number, scripts: BundleScripts, measure: MeasureScripts) {
  const script = await scripts.bundleModules(set.modules, root);
  let styleSheetGzipBytes = 0;
  if (set.styleSheet) {
    const css = readFileSync(packageFile(set.package, set.styleSheet), "utf8");
    const { code } = await transform(css, { loader: "css", minify: true });
    styleSheetGzipBytes = measure.gzipSize(code);
  }
  const scriptGzipBytes = measure.gzipSize(script);
  const gzipBytes = scriptGzipBytes + styleSheetGzipBytes;
  return {
    version: versionOf(set.package),
    components: set.components,
    scriptGzipBytes,
    styleSheetGzipBytes,
    gzipBytes,
    bundleRatio: Number((bundleBytes / gzipBytes).toFixed(3)),
  } satisfies AnchorFigures;
}

/** Compiles the core and the elements (their `dist`), so a benchmark measures the tree as it is. */
export function buildTypeScript(): void {
  const tsc = require.resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-b", "packages/core", "packages/elements"], { cwd: root, stdio: "inherit" });
}

export async function measureSize(): Promise<SizeFigures> {
  buildTypeScript();
  const dir = new URL("../packages/elements/scripts/", import.meta.url);
  const scripts = (await import(new URL("bundle.mjs", dir).href)) as BundleScripts;
  const measure = (await import(new URL("measure-size.mjs", dir).href)) as MeasureScripts;
  await scripts.buildBundle();
  const bundleGzipBytes = measure.bundleGzipBytes();
  const anchors: Record<string, AnchorFigures> = {};
  for (const set of ANCHOR_SETS) anchors[set.package] = await measureAnchor(set, bundleGzipBytes, scripts, measure);
  const [lightestAnchor, lightest] = Object.entries(anchors).sort(([, a], [, b]) => a.gzipBytes - b.gzipBytes)[0]!;
  return {
    bundleGzipBytes,
    perElement: await measure.perElementGzipBytes(),
    anchors,
    lightestAnchor,
    bundleToLightestAnchor: lightest.bundleRatio,
    goalBundleToLightestAnchor: GOAL_RATIO,
  };
}

/** `pnpm bench size`: writes size.json; bench/run.ts prints the ratio against the goal. */
export async function run(): Promise<SizeFigures> {
  const size = await measureSize();
  for (const [tag, bytes] of Object.entries(size.perElement)) console.log(`    ${tag}: ${bytes}`);
  for (const [name, anchor] of Object.entries(size.anchors)) {
    console.log(
      `    ${name} ${anchor.version} (${anchor.components.join(", ")}): ${anchor.gzipBytes} ` +
        `(script ${anchor.scriptGzipBytes}, style sheet ${anchor.styleSheetGzipBytes}); ours ÷ theirs ${anchor.bundleRatio}`,
    );
  }
  return size;
}
