// custom-elements.json from the elements' JSDoc (@slot, @event, @csspart, @cssprop) and their `static properties`.
// The analyzer parses with its own TypeScript; the elements use no decorators, so nothing here depends on it.

/** "Class.member" of every member marked `@internal` or `@ignore` (from the analyze phase). */
const internal = new Set();

/** Type parameters and `extends` type arguments of each class, by class name (from the analyze phase). */
const generics = new Map();

/** Replaces whole-word type parameter names in a type's text. */
function substitute(text, bindings) {
  if (!text || bindings.size === 0) return text;
  return text.replace(/\b[A-Za-z_$][\w$]*\b/g, (word) => bindings.get(word) ?? word);
}

/** A copy of an inherited member (or attribute) with its superclass's type parameters replaced by their arguments. */
function bindTypes(item, bindings) {
  const typed = (holder) =>
    holder?.type ? { ...holder, type: { text: substitute(holder.type.text, bindings) } } : holder;
  const copy = typed(item);
  if (item.return) copy.return = typed(item.return);
  if (item.parameters) copy.parameters = item.parameters.map(typed);
  return copy;
}

export default {
  // The dialogs inherit heading, timeout, open, modal, show(), ask() ... from DialogElement; every element theme and
  // strings from PiElement: scan the bases (src/base/) too.
  globs: ["src/elements/*/*.ts", "src/base/*.ts"],
  exclude: ["src/**/*.styles.ts", "src/**/*.test.ts"],
  outdir: ".",
  litelement: true,
  packagejson: false,
  plugins: [
    {
      // The analyzer's inheritance (CORE - APPLY-INHERITANCE) matches members by name alone, so of a base's
      // `static ask()` and instance `ask()` a subclass keeps only the first; and it copies inherited types as the
      // base wrote them (`R`, `A`). This runs after it: it adds the members it dropped (matched by name and
      // `static`), and writes each inherited type with the subclass's type arguments (`extends DialogElement<SelectRequest, string>`).
      name: "pi-elements-inheritance",
      analyzePhase({ ts, node }) {
        if (!ts.isClassDeclaration(node) || !node.name) return;
        const base = node.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0];
        generics.set(node.name.text, {
          parameters: (node.typeParameters ?? []).map((p) => p.name.text),
          arguments: (base?.typeArguments ?? []).map((t) => t.getText()),
        });
      },
      packageLinkPhase({ customElementsManifest }) {
        const classes = new Map();
        for (const mod of customElementsManifest.modules) {
          for (const declaration of mod.declarations ?? []) {
            if (declaration.kind === "class") classes.set(declaration.name, { declaration, path: mod.path });
          }
        }
        const key = (member) => `${member.static ? "static " : ""}${member.name}`;
        for (const { declaration } of classes.values()) {
          // Walk up the chain, composing the bindings: a base's type parameter -> the text it stands for here.
          let bindings = new Map();
          let child = declaration;
          let parent = classes.get(child.superclass?.name);
          while (parent) {
            const args = (generics.get(child.name)?.arguments ?? []).map((a) => substitute(a, bindings));
            const params = generics.get(parent.declaration.name)?.parameters ?? [];
            bindings = new Map(params.map((p, i) => [p, args[i] ?? p]));
            const inheritedFrom = { name: parent.declaration.name, module: parent.path };
            const own = new Set((declaration.members ?? []).map(key));
            for (const member of parent.declaration.members ?? []) {
              if (!own.has(key(member))) {
                declaration.members = [...(declaration.members ?? []), { ...member, inheritedFrom }];
                own.add(key(member));
              }
            }
            for (const list of ["members", "attributes"]) {
              declaration[list] = declaration[list]?.map((item) =>
                item.inheritedFrom?.name === parent.declaration.name ? bindTypes(item, bindings) : item,
              );
            }
            child = parent.declaration;
            parent = classes.get(child.superclass?.name);
          }
        }
      },
    },
    {
      // Integration-only members (`@internal` or `@ignore` in their JSDoc: what a host such as pi-extension-ui and
      // the element say to each other) are not public API. The analyzer drops such members itself, but Lit's
      // `static properties` puts a declared property back, and subclasses inherit copies: remove them by class and
      // name, from every class that inherits them (a subclass's own `@internal` override included).
      name: "pi-elements-internal",
      analyzePhase({ ts, node }) {
        if (!ts.isClassDeclaration(node) || !node.name) return;
        for (const member of node.members) {
          const tags = ts.getJSDocTags(member).map((tag) => tag.tagName.text);
          if (member.name && (tags.includes("internal") || tags.includes("ignore"))) {
            internal.add(`${node.name.text}.${member.name.getText()}`);
          }
        }
      },
      packageLinkPhase({ customElementsManifest }) {
        const hidden = (owner, item) =>
          internal.has(`${owner}.${item.name}`) ||
          (item.inheritedFrom && internal.has(`${item.inheritedFrom.name}.${item.name}`));
        for (const mod of customElementsManifest.modules) {
          for (const declaration of mod.declarations ?? []) {
            if (declaration.members)
              declaration.members = declaration.members.filter((m) => !hidden(declaration.name, m));
            if (declaration.attributes) {
              declaration.attributes = declaration.attributes.filter(
                (a) => !a.fieldName || !hidden(declaration.name, { ...a, name: a.fieldName }),
              );
            }
          }
        }
      },
    },
    {
      // Point module paths at the built files, which is what a consumer imports.
      name: "pi-elements-dist-paths",
      packageLinkPhase({ customElementsManifest }) {
        const dist = (path) => path.replace(/^(\/?)src\//, "$1dist/").replace(/\.ts$/, ".js");
        for (const mod of customElementsManifest.modules) {
          // Keep only what a module exports (the analyzer also lists some module-local bindings).
          const exported = new Set((mod.exports ?? []).map((entry) => entry.declaration?.name ?? entry.name));
          mod.declarations = (mod.declarations ?? []).filter((declaration) => exported.has(declaration.name));
          mod.path = dist(mod.path);
          for (const declaration of mod.declarations) {
            if (declaration.superclass?.module) declaration.superclass.module = dist(declaration.superclass.module);
            for (const list of ["members", "attributes", "events"]) {
              for (const item of declaration[list] ?? []) {
                if (item.inheritedFrom?.module)
                  item.inheritedFrom = { ...item.inheritedFrom, module: dist(item.inheritedFrom.module) };
              }
            }
          }
        }
      },
    },
  ],
};
