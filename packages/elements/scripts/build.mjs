// The elements package's build after `tsc -b`: custom-elements.json, framework typings and the single-file bundle.
// The size ceiling is checked by scripts/check-size.mjs, which the root `test` command runs last.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { buildBundle, buildConversationBundles, packageDir } from "./bundle.mjs";
import { writeFrameworkTypes } from "./framework-types.mjs";

const cem = createRequire(import.meta.url).resolve("@custom-elements-manifest/analyzer/cem.js");
execFileSync(process.execPath, [cem, "analyze", "--config", "custom-elements-manifest.config.mjs", "--quiet"], {
  cwd: packageDir,
  stdio: "inherit",
});
const elements = writeFrameworkTypes();
console.log(`custom-elements.json and framework typings: ${elements.map((e) => e.tag).join(", ")}`);
await buildBundle();
await buildConversationBundles();
