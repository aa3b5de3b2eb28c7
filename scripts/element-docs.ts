// Per-element reference docs, generated from the custom-elements manifest the elements' JSDoc produces:
// `node --import tsx scripts/element-docs.ts` writes docs/elements.md; `--check` fails when it is out of date
// (the test command runs that, so the docs cannot drift from the code).
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

interface Parameter {
  name: string;
  type?: { text: string };
  default?: string;
  optional?: boolean;
  description?: string;
}
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
  parameters?: Parameter[];
  return?: { type?: { text: string } };
  inheritedFrom?: { name: string };
  /** JSDoc `@deprecated`: true, or what to use instead. */
  deprecated?: boolean | string;
}
interface Declaration {
  kind: string;
  name: string;
  tagName?: string;
  customElement?: boolean;
  description?: string;
  summary?: string;
  superclass?: { name: string };
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

const declarations = manifest.modules.flatMap((m) => m.declarations ?? []);
const elements = declarations
  .filter((d) => d.customElement && d.tagName)
  .sort((a, b) => (a.tagName ?? "").localeCompare(b.tagName ?? ""));
/** The classes elements extend that are documented here too (no tag of their own): DialogElement, PiElement. */
const bases = declarations
  .filter((d) => d.kind === "class" && !d.tagName && elements.some((e) => e.superclass?.name === d.name))
  .sort((a, b) => a.name.localeCompare(b.name));

/** Where each documented class is described: its section in this file. */
const anchors = new Map<string, string>([
  ...elements.map((e): [string, string] => [e.name, `#${e.tagName}`]),
  ...bases.map((b): [string, string] => [b.name, `#${b.name.toLowerCase()}`]),
]);
/** Names the descriptions refer to ("see setStrings") that are documented elsewhere. */
const elsewhere = new Map([["setStrings", "theming-and-languages.md#languages"]]);

/**
 * Turns "See X" / "see X" (X a class or function name, optionally in backticks) into a link to X's section; a
 * reference to anything this file does not know stops the generator, so no "See X" is left pointing nowhere.
 */
function resolveReferences(text: string, where: string): string {
  return text.replace(/\b([Ss]ee) `?([A-Za-z_$][\w$]*)`?(\(\))?/g, (match, see: string, name: string) => {
    if (/^[a-z]+$/.test(name) && !elsewhere.has(name)) return match; // "see the …", "see below": prose.
    const target = anchors.get(name) ?? elsewhere.get(name);
    if (!target) throw new Error(`${where} refers to "${name}", which is documented nowhere: link it or reword.`);
    return `${see} [\`${name}\`](${target})`;
  });
}

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

/** Public API only: no #private or _internal names, no protected members, no controller instances. */
const isPublic = (m: Named) =>
  (m.privacy ?? "public") === "public" && !/^[#_]/.test(m.name) && !/Controller\b/.test(m.type?.text ?? "");

/**
 * `name(a: T, b: U = default): R`. A static method typed on `this` (`this: new () => T`) is written for the class
 * it is called on: `T` becomes that class.
 */
function signature(method: Named, owner: Declaration): string {
  const self = method.parameters?.find((p) => p.name === "this")?.type?.text.match(/^new \(\) => (\w+)$/)?.[1];
  const bind = (text: string) =>
    self && owner.tagName ? text.replace(new RegExp(`\\b${self}\\b`, "g"), owner.name) : text;
  const parameters = (method.parameters ?? [])
    .filter((p) => p.name !== "this")
    .map((p) => {
      const type = p.type ? `${p.optional ? "?" : ""}: ${bind(p.type.text)}` : p.optional ? "?" : "";
      return `${p.name}${type}${p.default !== undefined ? ` = ${p.default}` : ""}`;
    });
  const returns = method.return?.type?.text;
  return `${method.static ? `${owner.name}.` : ""}${method.name}(${parameters.join(", ")})${returns ? `: ${bind(returns)}` : ""}`;
}

/** "**Deprecated**", and what to use instead, for a member marked `@deprecated`. */
function deprecation(member: Named): string {
  if (member.deprecated === undefined || member.deprecated === false) return "";
  return member.deprecated === true ? "**Deprecated.**" : `**Deprecated:** ${member.deprecated}`;
}

/** A method's description, then what each described parameter is. */
function methodText(method: Named, owner: Declaration, where: string): string {
  const params = (method.parameters ?? []).filter((p) => p.description).map((p) => `\`${p.name}\`: ${p.description}`);
  const self = method.parameters?.find((p) => p.name === "this")?.type?.text.match(/^new \(\) => (\w+)$/)?.[1];
  // On a base, the class a `this`-typed static method is called on is still open.
  const note = self && !owner.tagName ? `(\`${self}\`: the class it is called on.)` : "";
  const text = [deprecation(method), method.description ?? "", ...params, note].filter(Boolean).join(" ");
  return cell(resolveReferences(text, where));
}

function apiTables(declaration: Declaration): Array<[string, string]> {
  const attributes = new Map((declaration.attributes ?? []).map((a) => [a.fieldName ?? a.name, a.name]));
  const members = (declaration.members ?? []).filter(isPublic);
  const properties = members.filter((m) => m.kind === "field" && !m.static);
  const methods = members.filter((m) => m.kind === "method" && !m.static);
  const statics = members.filter((m) => m.kind === "method" && m.static);
  const where = (m: Named) => `${declaration.name}.${m.name}`;
  return [
    [
      "Properties",
      table(
        ["Property", "Attribute", "Type", "Default", "Description"],
        properties.map((p) => [
          code(p.name),
          code(attributes.get(p.name)),
          code(p.type?.text),
          code(p.default),
          cell(
            resolveReferences(
              [deprecation(p), `${p.description ?? ""}${p.readonly ? " (read-only)" : ""}`].filter(Boolean).join(" "),
              where(p),
            ),
          ),
        ]),
      ),
    ],
    [
      "Methods",
      table(
        ["Method", "Description"],
        methods.map((m) => [code(signature(m, declaration)), methodText(m, declaration, where(m))]),
      ),
    ],
    [
      "Static methods",
      table(
        ["Method", "Description"],
        statics.map((m) => [code(signature(m, declaration)), methodText(m, declaration, where(m))]),
      ),
    ],
  ];
}

function section(element: Declaration): string {
  const base = element.superclass && anchors.has(element.superclass.name) ? element.superclass.name : undefined;
  const parts = [
    `## \`<${element.tagName}>\``,
    "",
    `Class \`${element.name}\`${base ? ` (extends [\`${base}\`](${anchors.get(base)}))` : ""}. Import \`@pi-elements/elements/elements/${element.tagName?.replace(/^pi-/, "")}.js\` to register it alone.`,
    "",
    resolveReferences(element.description ?? element.summary ?? "", element.name),
    "",
  ];
  const blocks: Array<[string, string]> = [
    ...apiTables(element),
    [
      "Events",
      table(
        ["Event", "Detail and meaning"],
        (element.events ?? []).map((e) => [code(e.name), cell(resolveReferences(e.description ?? "", element.name))]),
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

/** A shared base: what it gives the elements that extend it (each element's section lists the same members). */
function baseSection(base: Declaration): string {
  const users = elements
    .filter((e) => e.superclass?.name === base.name)
    .map((e) => `[\`<${e.tagName}>\`](#${e.tagName})`);
  const parts = [
    `## \`${base.name}\``,
    "",
    `The base class of ${users.join(", ")}; no tag of its own. Exported from \`@pi-elements/elements\` for subclassing.`,
    "",
  ];
  if (base.description) parts.push(resolveReferences(base.description, base.name), "");
  for (const [title, body] of apiTables(base)) if (body) parts.push(`### ${title}`, "", body, "");
  return parts.join("\n");
}

/** An alias's description names the current part: "The same as `base`: its earlier name, kept as an alias." */
const ALIAS = /^The same as `([^`]+)`(.*?): (?:its|their) earlier (?:shared )?name, kept as an\s+alias/;

/** Every element's earlier part names, from its `@csspart` aliases: the migration table. */
function partNames(): string {
  const rows = elements.flatMap((element) =>
    (element.cssParts ?? []).flatMap((part) => {
      const match = ALIAS.exec(part.description ?? "");
      return match ? [[code(element.tagName), code(part.name), `${code(match[1])}${match[2] ?? ""}`]] : [];
    }),
  );
  return [
    "## Part names",
    "",
    "One scheme for every element: the main part is `base`; every button has the part `button` and a part named",
    "for what it does, ending in `-button` (`submit-button`, `dismiss-button`, `queue-next-button`). Earlier names",
    "stay as aliases in the same `part` attribute, so `::part(old)` rules keep working:",
    "",
    table(["Element", "Earlier part", "Now"], rows),
    "",
  ].join("\n");
}

const text = [
  "# Element reference",
  "",
  "Generated from `packages/elements/custom-elements.json` by `scripts/element-docs.ts`; do not edit by hand.",
  "",
  ...elements.map((e) => `- [\`<${e.tagName}>\`](#${e.tagName})`),
  ...bases.map((b) => `- [\`${b.name}\`](${anchors.get(b.name)}) (shared base)`),
  "",
  partNames(),
  ...elements.map(section),
  ...bases.map(baseSection),
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
