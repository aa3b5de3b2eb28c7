// The demo is served from source: the workspace packages are aliased to their src/ so edits reload at once.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const pkg = (path: string) => fileURLToPath(new URL(`../packages/${path}`, import.meta.url));

/** The workspace packages from their src/, with Lit's production build: the demo's and the workshop's (Storybook's). */
export const sourceResolve = {
  // Lit's production build, also under the dev server: the demo is what a user of the library sees.
  conditions: ["module", "browser", "production"],
  alias: [
    { find: /^@pi-elements\/core$/, replacement: pkg("core/src/index.ts") },
    { find: /^@pi-elements\/core\/ui-state$/, replacement: pkg("core/src/session/ui-state.ts") },
    { find: /^@pi-elements\/core\/dialogs$/, replacement: pkg("core/src/session/dialogs.ts") },
    { find: /^@pi-elements\/core\/conversation$/, replacement: pkg("core/src/conversation/index.ts") },
    { find: /^@pi-elements\/elements$/, replacement: pkg("elements/src/index.ts") },
    { find: /^@pi-elements\/elements\/all\.js$/, replacement: pkg("elements/src/all.ts") },
    { find: /^@pi-elements\/elements\/extension-ui\.js$/, replacement: pkg("elements/src/extension-ui.ts") },
    { find: /^@pi-elements\/elements\/transcript\.js$/, replacement: pkg("elements/src/transcript.ts") },
    {
      find: /^@pi-elements\/elements\/elements\/([\w-]+)\.js$/,
      replacement: pkg("elements/src/elements/$1/define.ts"),
    },
  ],
};

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  resolve: sourceResolve,
  // The highlighter's worker too: Vite's scan of the page does not follow a worker, so lowlight was found at run
  // time, and its optimization reloaded the page in the middle of the first answer with a code block (once a cache).
  optimizeDeps: { entries: ["index.html", pkg("elements/src/elements/code-block/highlight-worker.ts")] },
  server: { host: "127.0.0.1", strictPort: false },
  build: { target: "es2022" },
});
