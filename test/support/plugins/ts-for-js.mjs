// Serves a source module's `.ts` for a request of its `.js` that is not a file: what a `new URL("./x.js",
// import.meta.url)` in the sources (a worker's file) names, as tsc's output and the bundles have it. The esbuild
// plugin then compiles it as it does every `.ts` the tests import.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));

/** A koa middleware for the test server (web-test-runner.config.mjs `middleware`). */
export function tsForJs() {
  return (context, next) => {
    const path = context.path;
    if (/^\/packages\/[^/]+\/src\/.+\.js$/.test(path) && !existsSync(root + path.slice(1))) {
      const ts = path.replace(/\.js$/, ".ts");
      if (existsSync(root + ts.slice(1))) context.url = ts + context.url.slice(path.length);
    }
    return next();
  };
}
