// highlight.js's ES entry of its core (`highlight.js/lib/core`, which lowlight imports) re-exports the CommonJS
// build (`es/core.js` imports `lib/core.js`, to avoid the dual-package hazard); bundlers (esbuild, Vite) convert it,
// but the test server serves modules as they are. This wraps that one CommonJS file as a module with a default
// export, as a bundler would. Its only export is `module.exports = highlight;` and it requires nothing.
export function commonjsHighlightPlugin() {
  return {
    name: "commonjs-highlight",
    transform(context) {
      if (!/\/highlight\.js\/lib\/core\.js$/.test(context.path)) return undefined;
      const body = String(context.body);
      return {
        body: `const module = { exports: {} };\nconst exports = module.exports;\n${body}\nexport default module.exports;\n`,
      };
    },
  };
}
