/**
 * For benchmarks that run in the browser: bundles a page script with esbuild (minified, as an app would ship it)
 * and opens it in Debian's Chromium via playwright-core. The page is served from a loopback HTTP server rather
 * than about:blank so it is a normal secure origin (workers, storage, timers behave as on a site).
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import { type Browser, chromium, type Page } from "playwright-core";
import { launchOptions } from "../scripts/chromium.mjs";

export interface BenchPage {
  page: Page;
  /** Uncaught errors of the page so far: a benchmark whose page threw measured something else. */
  errors: string[];
  close(): Promise<void>;
}

export interface PageOptions {
  /**
   * Serve the page cross-origin isolated (COOP + COEP headers): `performance.now()` then has 5 µs resolution instead
   * of 100 µs, for figures of a millisecond or less.
   */
  isolated?: boolean;
}

/**
 * `BENCH_ELEMENTS_DIST=dir` bundles the page with the elements' build in `dir` instead of packages/elements/dist (an
 * earlier build copied aside, to compare two versions in one session under the same load). `dir` must be inside
 * packages/elements (e.g. packages/elements/node_modules/.old-dist) so that its imports of lit and the core resolve,
 * with a package.json of `{ "type": "module", "sideEffects": true }` (else the elements' `sideEffects` list drops
 * its define.js imports).
 */
function elementsDistPlugin(): Plugin[] {
  const dir = process.env.BENCH_ELEMENTS_DIST;
  if (!dir) return [];
  const dist = fileURLToPath(new URL("../packages/elements/dist/", import.meta.url));
  const other = `${resolve(dir)}/`;
  return [
    {
      name: "elements-dist",
      setup(build) {
        build.onResolve({ filter: /elements\/dist\// }, (args) => {
          const path = resolve(args.resolveDir, args.path);
          return path.startsWith(dist) ? { path: other + path.slice(dist.length) } : undefined;
        });
      },
    },
  ];
}

/** A loopback server of a page whose only script is `entry` (a TypeScript module), bundled; any engine may open it. */
export interface ServedPage {
  url: string;
  close(): void;
}

/** Bundles `entry` and serves it as a page on 127.0.0.1 (with the highlighter's worker beside it). */
export async function serveBundledPage(entry: URL, options: PageOptions = {}): Promise<ServedPage> {
  const bundle = await build({
    entryPoints: [fileURLToPath(entry)],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: process.env.BENCH_MINIFY !== "0",
    write: false,
    conditions: ["browser", "production"],
    plugins: elementsDistPlugin(),
    define: { "process.env.NODE_ENV": '"production"' },
  });
  const script = bundle.outputFiles[0]!.text;
  const headers = options.isolated
    ? { "cross-origin-opener-policy": "same-origin", "cross-origin-embedder-policy": "require-corp" }
    : {};
  // The highlighter's worker, which the bundled page names beside itself (`new URL("./highlight-worker.js", ...)`), as
  // the build writes it beside the bundles.
  const worker = readFileSync(new URL("../packages/elements/dist/highlight-worker.js", import.meta.url), "utf8");
  const server = createServer((request, response) => {
    if (request.url === "/bench.js") {
      response.writeHead(200, { ...headers, "content-type": "text/javascript" }).end(script);
    } else if (request.url === "/highlight-worker.js") {
      response.writeHead(200, { ...headers, "content-type": "text/javascript" }).end(worker);
    } else {
      response
        .writeHead(200, { ...headers, "content-type": "text/html" })
        .end('<!doctype html><meta charset="utf-8"><script type="module" src="/bench.js"></script>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
}

/** Opens a page that has run `entry` (a TypeScript module) as its only script. `gc()` is exposed to the page. */
export async function openBundledPage(entry: URL, options: PageOptions = {}): Promise<BenchPage> {
  const server = await serveBundledPage(entry, options);
  const launch = launchOptions() as { args: string[] };
  const browser: Browser = await chromium.launch({ ...launch, args: [...launch.args, "--js-flags=--expose-gc"] });
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(server.url, { waitUntil: "load" });
    if (errors.length > 0) throw new Error(`The bench page failed: ${errors.join("; ")}`);
    return {
      page,
      errors,
      async close() {
        await browser.close();
        server.close();
      },
    };
  } catch (error) {
    await browser.close();
    server.close();
    throw error;
  }
}
