// custom-elements.json from the elements' JSDoc (@slot, @event, @csspart, @cssprop) and their `static properties`.
// The analyzer parses with its own TypeScript; the elements use no decorators, so nothing here depends on it.
export default {
  // The dialogs inherit heading, timeout, open, modal, show(), ask() ... from DialogElement: scan it too.
  globs: ["src/elements/*/*.ts", "src/controllers/dialog-element.ts"],
  exclude: ["src/**/*.styles.ts", "src/**/*.test.ts"],
  outdir: ".",
  litelement: true,
  packagejson: false,
  plugins: [
    {
      // Point module paths at the built files, which is what a consumer imports.
      name: "pi-elements-dist-paths",
      packageLinkPhase({ customElementsManifest }) {
        for (const mod of customElementsManifest.modules) {
          // Keep only what a module exports (the analyzer also lists some module-local bindings).
          const exported = new Set((mod.exports ?? []).map((entry) => entry.declaration?.name ?? entry.name));
          mod.declarations = (mod.declarations ?? []).filter((declaration) => exported.has(declaration.name));
          mod.path = mod.path.replace(/^src\//, "dist/").replace(/\.ts$/, ".js");
        }
      },
    },
  ],
};
