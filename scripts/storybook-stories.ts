/**
 * Writes demo/storybook/<module>.stories.ts, one CSF file per gallery story module, so Storybook serves every story
 * the gallery has (demo/src/gallery/stories, the one place stories are written). What Storybook's indexer reads
 * statically (the title, the component, the tags, each story's export and name) is written out here; the rest comes
 * from demo/storybook/adapter.ts at run time. `--check` fails if a file is missing or out of date.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { storyModules } from "../demo/src/gallery/stories/index.js";

const dir = fileURLToPath(new URL("../demo/storybook/", import.meta.url));
const check = process.argv.includes("--check");

function exportName(name: string, taken: Set<string>): string {
  const words = name
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9]+/g, " ")
    .trim()
    .split(" ")
    .filter(Boolean);
  let base = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("") || "Story";
  if (/^[0-9]/.test(base)) base = `Story${base}`;
  let candidate = base;
  for (let n = 2; taken.has(candidate); n++) candidate = `${base}${n}`;
  taken.add(candidate);
  return candidate;
}

const files = new Map<string, string>();
for (const module of storyModules) {
  const taken = new Set<string>();
  const component = module.title.startsWith("pi-") ? `\n  component: ${JSON.stringify(module.title)},` : "";
  const stories = module.stories
    .map(
      (story, index) =>
        `export const ${exportName(story.name, taken)} = { ...storyOf(module, ${index}), name: ${JSON.stringify(story.name)} };`,
    )
    .join("\n");
  files.set(
    `${module.id}.stories.ts`,
    `// Written by scripts/storybook-stories.ts from the gallery's "${module.id}" stories (pnpm run stories); do not edit.
import { storyModules } from "../src/gallery/stories/index.js";
import { metaOf, storyOf } from "./adapter.js";

const module = storyModules.find((m) => m.id === ${JSON.stringify(module.id)})!;

export default {
  ...metaOf(module),
  title: ${JSON.stringify(module.title)},${component}
  tags: ["autodocs"],
};

${stories}
`,
  );
}

const stale = readdirSync(dir).filter((f) => f.endsWith(".stories.ts") && !files.has(f));
const outdated = [...files].filter(
  ([name, text]) => !existsSync(join(dir, name)) || readFileSync(join(dir, name), "utf8") !== text,
);
if (check) {
  if (stale.length + outdated.length > 0) {
    console.error(
      `demo/storybook is out of date (${[...stale, ...outdated.map(([n]) => n)].join(", ")}): run pnpm run stories`,
    );
    process.exit(1);
  }
  console.log(`demo/storybook is up to date (${files.size} files)`);
} else {
  for (const name of stale) rmSync(join(dir, name));
  for (const [name, text] of outdated) writeFileSync(join(dir, name), text);
  const count = storyModules.reduce((sum, m) => sum + m.stories.length, 0);
  console.log(`wrote demo/storybook (${files.size} files, ${count} stories)`);
}
