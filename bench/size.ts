/**
 * Bundle size, as `packages/elements`'s build measures it for the CI ceiling: the single-file bundle minified and
 * gzipped at level 9, and each element's entry bundled alone. Builds the TypeScript and the bundle first, so the
 * figures are for the tree as it is.
 */
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

interface SizeScripts {
  buildBundle(): Promise<void>;
  bundleGzipBytes(): number;
  perElementGzipBytes(): Promise<Record<string, number>>;
}

export interface SizeFigures {
  bundleGzipBytes: number;
  perElement: Record<string, number>;
}

export async function measureSize(): Promise<SizeFigures> {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-b", "packages/core", "packages/elements"], { cwd: root, stdio: "inherit" });
  const scripts = new URL("../packages/elements/scripts/", import.meta.url);
  const bundle = (await import(new URL("bundle.mjs", scripts).href)) as SizeScripts;
  const measure = (await import(new URL("measure-size.mjs", scripts).href)) as SizeScripts;
  await bundle.buildBundle();
  return { bundleGzipBytes: measure.bundleGzipBytes(), perElement: await measure.perElementGzipBytes() };
}
