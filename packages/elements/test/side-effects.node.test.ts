/**
 * The `sideEffects` field of the elements' and the core's package.json, checked against what the built modules do
 * (run after the build):
 *
 * - exact: every module of both packages is evaluated on its own in Chromium, dependencies first, with its
 *   observable effects on the page recorded (a tag defined, a listener on window or document, a new global, a DOM
 *   change). A module must be listed exactly when it has such an effect, or imports a listed module only for its
 *   effects (`import "./define.js"`, as all.js does). The src/ patterns mirror the dist/ ones (the demo builds from
 *   src/).
 * - kept: an app that imports nothing but one element's module, built by esbuild and by Vite as a user would
 *   (the package installed under node_modules), still defines that element.
 * - dropped: an app that imports only `localize` from the package root gets no element, no listener.
 */
import assert from "node:assert/strict";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { type Browser, chromium } from "playwright-core";
import ts from "typescript";
import { launchOptions } from "../../../scripts/chromium.mjs";
// @ts-expect-error: a plain .mjs helper without type declarations.
import { bundledElementNames, elementNames } from "../scripts/bundle.mjs";

const packagesDir = fileURLToPath(new URL("../../", import.meta.url));
const PACKAGES = ["core", "elements"] as const;
/** The prebuilt single-file bundle: checked in a page of its own, not rebuilt. */
const SINGLE_FILE = "elements/dist/pi-elements.bundle.js";
/**
 * The prebuilt conversation bundles (scripts/bundle.mjs) and their lazy chunks: checked in a page of their own too,
 * each bundle from a fresh page with its chunks served beside it.
 */
const PREBUILT = new Set([
  SINGLE_FILE,
  "elements/dist/pi-transcript.bundle.js",
  "elements/dist/pi-elements.full.bundle.js",
]);
const isPrebuilt = (module: string) => PREBUILT.has(module) || module.startsWith("elements/dist/chunks/");

const manifest = (name: string) =>
  JSON.parse(readFileSync(join(packagesDir, name, "package.json"), "utf8")) as { sideEffects: boolean | string[] };

/** Whether package `name`'s `sideEffects` lists `file` (a path inside the package, `dist/…` or `src/…`). */
function listed(name: string, file: string): boolean {
  const field = manifest(name).sideEffects;
  if (typeof field === "boolean") return field;
  return field.some((pattern) => {
    const source = pattern
      .replace(/^\.\//, "")
      .split("*")
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join("[^/]*");
    return new RegExp(`^${source}$`).test(file);
  });
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** Every built module of both packages, as `core/dist/…` / `elements/dist/…`. */
const modules = PACKAGES.flatMap((name) =>
  walk(join(packagesDir, name, "dist"))
    .filter((file) => file.endsWith(".js"))
    .map((file) => relative(packagesDir, file)),
);

/** Static imports of a built module: relative ones as module names (and which are for effects only), and packages. */
function importsOf(module: string): { local: string[]; effectOnly: string[]; packages: string[] } {
  const path = join(packagesDir, module);
  const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest);
  const found = { local: [] as string[], effectOnly: [] as string[], packages: [] as string[] };
  for (const statement of source.statements) {
    if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement))) continue;
    const specifier = statement.moduleSpecifier;
    if (!specifier || !ts.isStringLiteral(specifier)) continue;
    if (!specifier.text.startsWith(".")) {
      found.packages.push(specifier.text);
      continue;
    }
    const target = relative(packagesDir, resolve(dirname(path), specifier.text));
    found.local.push(target);
    if (ts.isImportDeclaration(statement) && !statement.importClause) found.effectOnly.push(target);
  }
  return found;
}

/** The modules in an order where each comes after everything it imports. */
function dependenciesFirst(): string[] {
  const order: string[] = [];
  const seen = new Set<string>();
  const visit = (module: string) => {
    if (seen.has(module)) return;
    seen.add(module);
    for (const dependency of importsOf(module).local) visit(dependency);
    order.push(module);
  };
  for (const module of modules) if (!isPrebuilt(module)) visit(module);
  return order;
}

/** Records what each imported module does to the page; `window.effects` gets the results. */
const PAGE = `<!doctype html><html lang="en"><meta charset="utf-8"><title>side effects</title>
<script type="module">
  const log = [];
  const define = customElements.define;
  customElements.define = function (name, ...rest) { log.push("defines <" + name + ">"); return define.call(this, name, ...rest); };
  const listen = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, ...rest) {
    if (this === window || this === document) log.push("listens for " + type + " on " + (this === window ? "window" : "document"));
    return listen.call(this, type, ...rest);
  };
  new MutationObserver((records) => { if (records.length) log.push("changes the DOM"); })
    .observe(document, { subtree: true, childList: true, attributes: true });
  const globals = () => new Set([...Object.getOwnPropertyNames(globalThis), ...Object.getOwnPropertySymbols(globalThis)]);
  window.measure = async (urls) => {
    const effects = {};
    for (const url of urls) {
      const before = globals();
      log.length = 0;
      await import(url);
      await new Promise((resolve) => setTimeout(resolve));
      for (const key of globals()) if (!before.has(key)) log.push("sets the global " + String(key));
      effects[url] = [...log];
    }
    return effects;
  };
</script>`;

describe("sideEffects", () => {
  let browser: Browser;
  let server: ReturnType<typeof createServer>;
  let origin = "";
  /** What the server serves besides the page: path -> code. */
  const files = new Map<string, string>();
  const work = mkdtempSync(join(tmpdir(), "pi-elements-side-effects-"));

  before(async () => {
    server = createServer((request, response) => {
      const code = files.get(request.url ?? "");
      if (code !== undefined) response.writeHead(200, { "content-type": "text/javascript" }).end(code);
      else response.writeHead(200, { "content-type": "text/html" }).end(PAGE);
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch(launchOptions());
    // A project with the packages installed, as a user has them (symlinks: their package.json is what is read).
    mkdirSync(join(work, "node_modules/@pi-elements"), { recursive: true });
    for (const name of PACKAGES) symlinkSync(join(packagesDir, name), join(work, "node_modules/@pi-elements", name));
  });

  after(async () => {
    await browser?.close();
    server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  /** Loads the page fresh and imports `urls` one after another; each one's effects. */
  async function measure(urls: string[]): Promise<Record<string, string[]>> {
    const page = await browser.newPage();
    try {
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      await page.goto(origin);
      await page.waitForFunction(() => "measure" in window);
      const effects = await page.evaluate(
        (list) => (window as unknown as { measure: typeof measure }).measure(list),
        urls,
      );
      assert.deepEqual(errors, []);
      return effects;
    } finally {
      await page.close();
    }
  }

  it("lists exactly the modules with effects on the page, and those that import one for its effects", async () => {
    const order = dependenciesFirst();
    // Every module an entry of one build, split into chunks: importing a module's entry runs its own code and
    // what it imports. The libraries are imported first, through an entry of their own, so their effects (Lit's
    // version globals) are theirs, and they land in chunks no module of ours shares.
    const vendor = (name: string) => [
      ...new Set(
        order
          .filter((m) => m.startsWith(`${name}/`))
          .flatMap((m) => importsOf(m).packages)
          .filter((s) => !s.startsWith("@pi-elements/")),
      ),
    ];
    const result = await build({
      entryPoints: [
        ...order.map((module) => ({ in: join(packagesDir, module), out: module.replace(/\.js$/, "") })),
        { in: "vendor:all", out: "vendor" },
      ],
      plugins: [
        {
          // vendor:all imports vendor:core and vendor:elements, each the libraries one package imports.
          name: "vendor",
          setup(b) {
            b.onResolve({ filter: /^vendor:/ }, (args) => ({ path: args.path, namespace: "vendor" }));
            b.onLoad({ filter: /.*/, namespace: "vendor" }, ({ path }) => {
              const name = path.slice("vendor:".length);
              const specifiers = name === "all" ? PACKAGES.map((p) => `vendor:${p}`) : vendor(name);
              return {
                contents: specifiers.map((s) => `import ${JSON.stringify(s)};`).join("\n"),
                resolveDir: join(packagesDir, name === "all" ? "elements" : name),
              };
            });
          },
        },
      ],
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "browser",
      conditions: ["production"],
      // Everything kept, so that each module's code is there to run.
      ignoreAnnotations: true,
      treeShaking: false,
      outdir: "/out",
      write: false,
      logLevel: "silent",
    });
    for (const file of result.outputFiles) files.set(`/${relative("/out", file.path)}`, file.text);
    const urlOf = (module: string) => `/${module}`;
    const effects = await measure(["/vendor.js", ...order.map(urlOf)]);

    const needed = new Set(order.filter((module) => effects[urlOf(module)]!.length > 0));
    // A module that imports a needed one only for its effects is needed too (all.js and its define imports).
    for (let grew = true; grew; ) {
      grew = false;
      for (const module of order) {
        if (!needed.has(module) && importsOf(module).effectOnly.some((m) => needed.has(m))) {
          needed.add(module);
          grew = true;
        }
      }
    }
    const describe = (module: string) =>
      `${module}: ${(effects[urlOf(module)] ?? []).join(", ") || (needed.has(module) ? "imports one for its effects" : "none")}`;
    const inPackage = (module: string) => listed(module.split("/")[0]!, module.replace(/^[^/]+\//, ""));
    assert.deepEqual(
      {
        "listed, but without effects": order.filter((m) => inPackage(m) && !needed.has(m)).map(describe),
        "with effects, but not listed": order.filter((m) => needed.has(m) && !inPackage(m)).map(describe),
      },
      { "listed, but without effects": [], "with effects, but not listed": [] },
    );
    // The measurement sees what it should: Lit's globals went to the libraries, the tags to the define modules.
    assert.ok(effects["/vendor.js"]!.some((e) => e.includes("litHtmlVersions")));
    assert.deepEqual(effects[urlOf("elements/dist/elements/status-bar/define.js")], ["defines <pi-status-bar>"]);
  });

  it("lists the prebuilt single-file bundle, which defines every element", async () => {
    files.set("/single.js", readFileSync(join(packagesDir, SINGLE_FILE), "utf8"));
    const [effects] = Object.values(await measure(["/single.js"]));
    for (const name of bundledElementNames() as string[]) assert.ok(effects!.includes(`defines <pi-${name}>`), name);
    // The conversation's elements and the session controls stay out of it (entries of their own).
    for (const name of (elementNames() as string[]).filter((n) => !(bundledElementNames() as string[]).includes(n))) {
      assert.ok(!effects!.includes(`defines <pi-${name}>`), `the bundle defines pi-${name}`);
    }
    assert.ok(listed("elements", SINGLE_FILE.replace(/^elements\//, "")));
  });

  it("lists the prebuilt conversation bundles, which define the conversation's elements, and not their chunks", async () => {
    for (const file of walk(join(packagesDir, "elements/dist/chunks"))) {
      files.set(`/chunks/${relative(join(packagesDir, "elements/dist/chunks"), file)}`, readFileSync(file, "utf8"));
      assert.ok(!listed("elements", relative(join(packagesDir, "elements"), file)), file);
    }
    for (const bundle of ["pi-transcript.bundle.js", "pi-elements.full.bundle.js"]) {
      files.set(`/${bundle}`, readFileSync(join(packagesDir, "elements/dist", bundle), "utf8"));
      const [effects] = Object.values(await measure([`/${bundle}`]));
      assert.ok(effects!.includes("defines <pi-tool-card>"), `${bundle}: ${effects}`);
      assert.ok(listed("elements", `dist/${bundle}`), bundle);
    }
  });

  it("lists each src/ module exactly when it lists the dist/ module built from it", () => {
    for (const file of walk(join(packagesDir, "elements/src")).filter((f) => f.endsWith(".ts"))) {
      const path = relative(join(packagesDir, "elements"), file);
      const built = path.replace(/^src\//, "dist/").replace(/\.ts$/, ".js");
      assert.equal(listed("elements", path), listed("elements", built), path);
    }
  });

  /** Builds `entry` (an app's main module) in the user's project and serves it under `/<name>/`; its entry's URL. */
  async function buildApp(tool: "esbuild" | "vite", name: string, entry: string): Promise<string> {
    const dir = mkdtempSync(join(work, "app-"));
    writeFileSync(join(dir, "main.js"), entry);
    let main = "";
    const serve = (fileName: string, code: string) => files.set(`/${name}/${fileName}`, code);
    if (tool === "esbuild") {
      const result = await build({
        entryPoints: [join(dir, "main.js")],
        bundle: true,
        format: "esm",
        minify: true,
        write: false,
        outdir: "/app",
        logLevel: "silent",
      });
      for (const file of result.outputFiles) serve(relative("/app", file.path), file.text);
      main = "main.js";
    } else {
      const vite = await import("vite");
      const output = (await vite.build({
        root: dir,
        configFile: false,
        logLevel: "silent",
        build: { write: false, rollupOptions: { input: join(dir, "main.js") } },
      })) as { output: { fileName: string; type: string; code?: string; isEntry?: boolean }[] };
      for (const chunk of output.output) {
        if (chunk.type !== "chunk") continue;
        serve(chunk.fileName, chunk.code!);
        if (chunk.isEntry) main = chunk.fileName;
      }
    }
    rmSync(dir, { recursive: true, force: true });
    return `/${name}/${main}`;
  }

  /** The code served under `/<name>/`. */
  const served = (name: string) => [...files].filter(([path]) => path.startsWith(`/${name}/`)).map(([, code]) => code);

  for (const tool of ["esbuild", "vite"] as const) {
    it(`keeps the registration of an app that imports only one element's module (${tool})`, async () => {
      for (const name of elementNames() as string[]) {
        const main = await buildApp(tool, `${tool}-${name}`, `import "@pi-elements/elements/elements/${name}.js";\n`);
        const [effects] = Object.values(await measure([main]));
        assert.ok(effects!.includes(`defines <pi-${name}>`), `${tool}: pi-${name} is not defined`);
      }
    });

    it(`drops every registration from an app that imports only localize() (${tool})`, async () => {
      const main = await buildApp(
        tool,
        `${tool}-localize`,
        `import { localize } from "@pi-elements/elements";\nwindow.text = localize(document.body, "yes");\n`,
      );
      const [effects] = Object.values(await measure([main]));
      assert.deepEqual(
        effects!.filter((e) => e.startsWith("defines") || e.includes("keydown")),
        [],
      );
      assert.ok(!served(`${tool}-localize`).some((code) => code.includes("customElements.define")));
    });
  }
});
