// Per-element reference docs, generated from the custom-elements manifest the elements' JSDoc produces:
// `node --import tsx scripts/element-docs.ts` writes docs/elements.md; `--check` fails when it is out of date
// (the test command runs that, so the docs cannot drift from the code).
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

interface Named {
  name: string;
  description?: string;
  type?: { text: string };
  default?: string;
  fieldName?: string;
  kind?: string;
  privacy?: string;
  static?: boolean;
  readonly?: boolean;
  inheritedFrom?: { name: string };
}
interface Declaration {
  name: string;
  tagName?: string;
  customElement?: boolean;
  description?: string;
  summary?: string;
  attributes?: Named[];
  members?: Named[];
  events?: Named[];
  slots?: Named[];
  cssParts?: Named[];
  cssProperties?: Named[];
}

const root = new URL("..", import.meta.url);
const manifest = JSON.parse(readFileSync(new URL("packages/elements/custom-elements.json", root), "utf8")) as {
  modules: Array<{ path: string; declarations?: Declaration[] }>;
};
const outFile = fileURLToPath(new URL("docs/elements.md", root));

const cell = (text: string | undefined) =>
  (text ?? "")
    .replace(/\s*\n\s*/g, " ")
    .replaceAll("|", "\\|")
    .trim();
const code = (text: string | undefined) => (text ? `\`${text.replaceAll("|", "\\|")}\`` : "");

function table(headers: string[], rows: string[][]): string {
  if (rows.length === 0) return "";
  return [
    `| ${headers.join(" | ")} |`,
    `|${headers.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ].join("\n");
}

function section(element: Declaration): string {
  const attributes = new Map((element.attributes ?? []).map((a) => [a.fieldName ?? a.name, a.name]));
  // Public API only: no #private or _internal names, no protected members, no controller instances.
  const isPublic = (m: Named) =>
    !m.static &&
    (m.privacy ?? "public") === "public" &&
    !/^[#_]/.test(m.name) &&
    !/Controller\b/.test(m.type?.text ?? "");
  const properties = (element.members ?? []).filter((m) => m.kind === "field" && isPublic(m));
  const methods = (element.members ?? []).filter((m) => m.kind === "method" && isPublic(m));
  const parts = [
    `## \`<${element.tagName}>\``,
    "",
    `Class \`${element.name}\`. Import \`@pi-elements/elements/elements/${element.tagName?.replace(/^pi-/, "")}.js\` to register it alone.`,
    "",
    element.description ?? element.summary ?? "",
    "",
  ];
  const blocks: Array<[string, string]> = [
    [
      "Properties",
      table(
        ["Property", "Attribute", "Type", "Default", "Description"],
        properties.map((p) => [
          code(p.name),
          code(attributes.get(p.name)),
          code(p.type?.text),
          code(p.default),
          cell(`${p.description ?? ""}${p.readonly ? " (read-only)" : ""}`),
        ]),
      ),
    ],
    [
      "Methods",
      table(
        ["Method", "Description"],
        methods.map((m) => [code(`${m.name}()`), cell(m.description)]),
      ),
    ],
    [
      "Events",
      table(
        ["Event", "Detail and meaning"],
        (element.events ?? []).map((e) => [code(e.name), cell(e.description)]),
      ),
    ],
    [
      "Slots",
      table(
        ["Slot", "Description"],
        (element.slots ?? []).map((s) => [s.name ? code(s.name) : "(default)", cell(s.description)]),
      ),
    ],
    [
      "CSS parts",
      table(
        ["Part", "Description"],
        (element.cssParts ?? []).map((p) => [code(p.name), cell(p.description)]),
      ),
    ],
    [
      "CSS custom properties",
      table(
        ["Property", "Description"],
        (element.cssProperties ?? []).map((p) => [code(p.name), cell(p.description)]),
      ),
    ],
  ];
  for (const [title, body] of blocks) if (body) parts.push(`### ${title}`, "", body, "");
  return parts.join("\n");
}

const elements = manifest.modules
  .flatMap((m) => m.declarations ?? [])
  .filter((d) => d.customElement && d.tagName)
  .sort((a, b) => (a.tagName ?? "").localeCompare(b.tagName ?? ""));

const text = [
  "# Element reference",
  "",
  "Generated from `packages/elements/custom-elements.json` by `scripts/element-docs.ts`; do not edit by hand.",
  "",
  ...elements.map((e) => `- [\`<${e.tagName}>\`](#${e.tagName})`),
  "",
  ...elements.map(section),
].join("\n");

if (process.argv.includes("--check")) {
  let current = "";
  try {
    current = readFileSync(outFile, "utf8");
  } catch {}
  if (current !== text) {
    console.error("docs/elements.md is out of date: run `pnpm docs` and commit it.");
    process.exit(1);
  }
  console.log(`docs/elements.md is up to date (${elements.length} elements).`);
} else {
  writeFileSync(outFile, text);
  console.log(`wrote docs/elements.md (${elements.length} elements)`);
}
