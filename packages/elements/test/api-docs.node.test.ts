/**
 * docs/elements.md against the code: every public member of every element class the package exports (and of the
 * shared bases they extend), as TypeScript sees it, is in that class's section of the reference, in the right
 * table (properties, methods, static methods); and nothing else is (no private, protected or internal member).
 *
 * TypeScript, not the manifest, is the reference here: the manifest is what the docs are generated from, so a
 * member the analyzer drops (as it dropped the instance `ask()` next to the static one) would be missing from both.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const docs = readFileSync(fileURLToPath(new URL("../../../docs/elements.md", import.meta.url)), "utf8");

/** The custom-element lifecycle callbacks: the browser's API, not the element's (the analyzer skips them too). */
const LIFECYCLE = new Set(["connectedCallback", "disconnectedCallback", "attributeChangedCallback", "adoptedCallback"]);

/** Integration-only: between an element and its host (pi-extension-ui), not public API. */
const isInternal = (declaration: ts.Declaration) =>
  ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === "internal" || tag.tagName.text === "ignore");

/** Members only pi-extension-ui and the dialog elements use between them; none is public API. */
const INTEGRATION_ONLY = ["hosted", "effectiveSession", "dialogRole", "description"];

interface Api {
  properties: Set<string>;
  methods: Set<string>;
  statics: Set<string>;
  /** The declared type of `session`, and whether a `PiSession` can be given to it. */
  session?: { type: string; takesPiSession: boolean };
}

/** The public API of each exported class that extends HTMLElement, from the package's own sources. */
function publicApi(): Map<string, Api> {
  const config = ts.getParsedCommandLineOfConfigFile(
    `${packageDir}tsconfig.json`,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(ts.flattenDiagnosticMessageText(d.messageText, "\n")),
    },
  );
  assert.ok(config);
  const program = ts.createProgram({
    rootNames: [`${packageDir}src/index.ts`],
    options: { ...config.options, noEmit: true },
  });
  const checker = program.getTypeChecker();
  const index = program.getSourceFile(`${packageDir}src/index.ts`);
  assert.ok(index);
  const ours = (node: ts.Node) => node.getSourceFile().fileName.startsWith(`${packageDir}src/`);
  const isPublic = (declaration: ts.Declaration) =>
    !(ts.getCombinedModifierFlags(declaration) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) &&
    !ts.isPrivateIdentifier(ts.getNameOfDeclaration(declaration) ?? declaration) &&
    !isInternal(declaration);
  // The core's PiSession, as the elements' own imports of @pi-elements/core see it.
  const piSessionSymbol = program
    .getSourceFiles()
    .filter((file) => /\/core\/(src|dist)\/index\.(d\.)?ts$/.test(file.fileName))
    .flatMap((file) => checker.getExportsOfModule(checker.getSymbolAtLocation(file)!))
    .find((symbol) => symbol.name === "PiSession");
  assert.ok(piSessionSymbol, "the core's PiSession");
  const piSession = checker.getDeclaredTypeOfSymbol(
    piSessionSymbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(piSessionSymbol) : piSessionSymbol,
  );
  const extendsHTMLElement = (type: ts.Type): boolean =>
    type.symbol?.name === "HTMLElement" ||
    (checker.getBaseTypes(type as ts.InterfaceType) ?? []).some(extendsHTMLElement);

  const apis = new Map<string, Api>();
  for (let symbol of checker.getExportsOfModule(checker.getSymbolAtLocation(index)!)) {
    if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    if (!(symbol.flags & ts.SymbolFlags.Class)) continue;
    const instance = checker.getDeclaredTypeOfSymbol(symbol);
    if (!extendsHTMLElement(instance)) continue;
    const api: Api = { properties: new Set(), methods: new Set(), statics: new Set() };
    for (const member of checker.getPropertiesOfType(instance)) {
      const declarations = (member.declarations ?? []).filter(ours);
      if (declarations.length === 0 || !declarations.every(isPublic) || /^[#_]/.test(member.name)) continue;
      if (LIFECYCLE.has(member.name)) continue;
      if (declarations.some(ts.isMethodDeclaration)) api.methods.add(member.name);
      else api.properties.add(member.name);
      if (member.name === "session") {
        const type = checker.getTypeOfSymbol(member);
        api.session = { type: checker.typeToString(type), takesPiSession: checker.isTypeAssignableTo(piSession, type) };
      }
    }
    const classType = checker.getTypeOfSymbol(symbol);
    for (const member of checker.getPropertiesOfType(classType)) {
      const declarations = (member.declarations ?? []).filter(ours);
      if (declarations.some((d) => ts.isMethodDeclaration(d) && isPublic(d))) api.statics.add(member.name);
    }
    apis.set(symbol.name, api);
  }
  return apis;
}

/** The section of docs/elements.md about `className`: the element whose "Class `X`" line names it, or the base. */
function documented(className: string): Api | undefined {
  const section = docs
    .split(/^## /m)
    .find((s) => s.startsWith(`\`${className}\`\n`) || s.includes(`\nClass \`${className}\``));
  if (!section) return undefined;
  const table = (title: string) => {
    const body = section.split(/^### /m).find((s) => s.startsWith(`${title}\n`)) ?? "";
    return new Set([...body.matchAll(/^\| `(?:\w+\.)?([\w$]+)/gm)].map((m) => m[1]!));
  };
  return { properties: table("Properties"), methods: table("Methods"), statics: table("Static methods") };
}

describe("docs/elements.md", () => {
  const apis = publicApi();

  it("finds the element classes and their bases in the package's exports", () => {
    for (const name of ["PiSelect", "PiPrompt", "PiSessionElement", "DialogElement"]) assert.ok(apis.has(name), name);
    // The test would pass vacuously if it saw no methods: the dialogs' ask() is both static and instance.
    assert.ok(apis.get("PiSelect")?.methods.has("ask") && apis.get("PiSelect")?.statics.has("ask"));
  });

  it("gives every element a `session` that takes a PiSession, typed PiSession, or DialogSession on the dialogs", () => {
    const sessions = [...apis].filter(([, api]) => api.session);
    assert.ok(sessions.length >= 8, "the display elements, the dialogs, pi-extension-ui and pi-session");
    for (const [name, api] of sessions) {
      assert.ok(api.session?.takesPiSession, `${name}.session takes a PiSession`);
      const dialog = name === "DialogElement" || apis.get(name)?.methods.has("ask");
      assert.equal(api.session?.type, dialog ? "DialogSession | undefined" : "PiSession | undefined", name);
    }
  });

  it("lists none of the integration-only members (hosted, effectiveSession, dialogRole, description)", () => {
    const dialogs = ["DialogElement", "PiSelect", "PiConfirm", "PiInput", "PiEditor"];
    for (const name of dialogs) {
      const docsApi = documented(name);
      assert.ok(docsApi, name);
      for (const member of INTEGRATION_ONLY) {
        assert.ok(!docsApi.properties.has(member) && !docsApi.methods.has(member), `docs: ${name}.${member}`);
      }
    }
    const manifest = JSON.parse(readFileSync(`${packageDir}custom-elements.json`, "utf8")) as {
      modules: Array<{ declarations?: Array<{ name: string; members?: Array<{ name: string }> }> }>;
    };
    const listed = manifest.modules
      .flatMap((mod) => mod.declarations ?? [])
      .filter((declaration) => dialogs.includes(declaration.name))
      .flatMap((declaration) => (declaration.members ?? []).map((member) => `${declaration.name}.${member.name}`))
      .filter((name) => INTEGRATION_ONLY.includes(name.split(".")[1]!));
    assert.deepEqual(listed, [], "custom-elements.json");
    // The manifest still has the dialogs' public API (the check above is not vacuous).
    assert.ok(apis.get("PiSelect")?.properties.has("heading"));
  });

  for (const [name, api] of apis) {
    it(`documents exactly the public API of ${name}`, () => {
      const docsApi = documented(name);
      assert.ok(docsApi, `docs/elements.md has no section for ${name}`);
      for (const kind of ["properties", "methods", "statics"] as const) {
        assert.deepEqual([...docsApi[kind]].sort(), [...api[kind]].sort(), `${name}: ${kind}`);
      }
    });
  }
});
