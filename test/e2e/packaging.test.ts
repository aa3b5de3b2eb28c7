/**
 * The packages as a user gets them: `pnpm pack` makes the three tarballs, npm installs them into a fresh project
 * outside the workspace (with their dependencies from the registry), and that project uses them the documented
 * ways, each against a real pi 0.73.1 behind the installed `pi-bridge` bin:
 *
 * - the tarballs: a LICENSE and a README each, every path `exports` / `main` / `types` / `bin` names is in the
 *   tarball, no `workspace:` dependency is left, and Node imports the core and the bridge from the project;
 * - TypeScript (`tsc --noEmit`, strict, NodeNext) on a file using the public API, so the `types` conditions are
 *   proven (and are not `any`: wrong uses are errors), and a deep import past `exports` is refused;
 * - a Vite app importing `@pi-elements/core` and `@pi-elements/elements/all.js`, built by Vite (the workspace's
 *   Vite binary, resolving the app's imports from the project's node_modules), served by the bridge;
 * - README.md's "Embedding in a page" taken literally: its `index.html` and `ext.ts` blocks written as files, its
 *   `npx pi-bridge …` line run as written (with pi on PATH), the printed address opened, the extension's dialog
 *   answered, with pi 0.73.1 and pi 1.6.0 on PATH. The page loads the installed single-file bundle from a plain
 *   `<script type="module">`;
 * - its second page, a complete pi web UI on the installed full bundle, taken as literally, with pi set up with the
 *   scripted model (test/support/scripted-model.ts) in its models.json: a prompt typed and sent, the answer after a
 *   bash run pi really makes, the stats counting the turn, and axe-core finding nothing on the page in light and dark.
 *
 * npm's cache is kept in node_modules/.cache/pi-elements-packaging, so a second run needs no download.
 * PACKAGING_SCREENSHOT=/tmp/embed saves the README page with its dialog open (/tmp/embed-0.73.1-dialog.png) and
 * answered (/tmp/embed-0.73.1-answered.png), and the complete page after its turn in both themes at 1280 and 375 px
 * (/tmp/embed-full-0.73.1-dark-375.png).
 */
import assert from "node:assert/strict";
import { type ChildProcess, execFile, spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type Browser, chromium, type LaunchOptions, type Page } from "playwright-core";
import { isolatedPi, PI_VERSIONS, piScript } from "../support/real-pi.js";
import { type ScriptedModel, startScriptedModel } from "../support/scripted-model.js";
import { promptReady } from "../support/wait-for.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const NPM_CACHE = join(ROOT, "node_modules/.cache/pi-elements-packaging/npm");
const EXTENSION = join(ROOT, "test/fixtures/pi/extensions/ui-exercise.ts");
const PACKAGES = ["core", "elements", "bridge"] as const;
const AXE = join(ROOT, "node_modules/axe-core/axe.min.js");
/** The complete page's turn: pi runs this with bash, then answers. */
const FULL_PAGE_COMMAND = "echo hello from bash";
const FULL_PAGE_ANSWER = "Bash said hello; the page shows its run above.";
/** The shared Chromium settings (scripts/chromium.mjs ships no types; a computed specifier keeps tsc out of it). */
const chromiumScript = new URL("../../scripts/chromium.mjs", import.meta.url).href;
const { launchOptions } = (await import(chromiumScript)) as { launchOptions(): LaunchOptions };

const execFileAsync = promisify(execFile);

/** Runs a command to its end; a failure carries its output. */
async function run(file: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) {
  try {
    return await execFileAsync(file, args, { ...options, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${file} ${args.join(" ")} failed in ${options.cwd}:\n${stdout ?? ""}\n${stderr ?? ""}`);
  }
}

/** The environment of a user's shell: none of the npm_* settings that `pnpm run` puts in ours. */
function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key)) env[key] = value;
  return { ...env, ...extra };
}

/** What the page's `axe.run()` answers, as far as the test reads it. */
interface AxeResults {
  violations: { id: string; nodes: { target: unknown }[] }[];
}

/** axe-core's violations on `page` (axe injected already) in this colour scheme, one line each. */
async function axeViolations(page: Page, colorScheme: "light" | "dark"): Promise<string[]> {
  await page.emulateMedia({ colorScheme });
  return page.evaluate(async () => {
    const { axe } = window as unknown as { axe: { run(): Promise<AxeResults> } };
    const result = await axe.run();
    return result.violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
  });
}

interface PackedFile {
  name: string;
  filename: string;
  files: { path: string }[];
}

/** The fenced block after `<!-- embedding: NAME -->` in README.md. */
function readmeBlock(name: string): string {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const marker = `<!-- embedding: ${name} -->`;
  const at = readme.indexOf(marker);
  assert.notEqual(at, -1, `README.md has ${marker}`);
  const block = /^```[a-z]*\n([\s\S]*?)^```$/m.exec(readme.slice(at + marker.length));
  assert.ok(block?.[1], `a code block follows ${marker}`);
  return block[1];
}

/** Every file path a manifest points at, with `*` patterns expanded against the tarball's files. */
function manifestTargets(manifest: Record<string, unknown>, files: readonly string[]): string[] {
  const targets: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === "string") targets.push(value);
    else if (value && typeof value === "object") for (const v of Object.values(value)) collect(v);
  };
  collect(manifest.exports);
  collect(manifest.main);
  collect(manifest.types);
  collect(manifest.bin);
  return targets.flatMap((target) => {
    const path = target.replace(/^\.\//, "");
    if (!path.includes("*")) return [path];
    const pattern = new RegExp(`^${path.split("*").map(escapeRegExp).join("[^/]+")}$`);
    const matches = files.filter((file) => pattern.test(file));
    return matches.length > 0 ? matches : [path];
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

interface Bridge {
  process: ChildProcess;
  /** The `http://…/?token=…` address it printed. */
  page: string;
  output: () => string;
}

/** Starts a bridge command (its own process group) and waits for the page address it prints. */
async function startBridgeProcess(
  file: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<Bridge> {
  const child = spawn(file, args, { ...options, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const page = await new Promise<string>((resolve, reject) => {
    const look = () => {
      const address = /^http:\/\/\S+\?token=\S+$/m.exec(output);
      if (address) resolve(address[0]);
    };
    child.stdout.on("data", look);
    child.on("exit", (code) => reject(new Error(`${file} ${args.join(" ")} exited ${code}:\n${output}`)));
  });
  return { process: child, page, output: () => output };
}

/**
 * Stops a bridge command: SIGTERM to its process group (npx, the bridge), then waits until the group is gone, so
 * the bridge has stopped its agent and closed its port (the next test may want the same port).
 */
async function stopBridgeProcess(bridge: Bridge | undefined): Promise<void> {
  const pid = bridge?.process.pid;
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGTERM");
  } catch {
    return; // Already gone.
  }
  for (;;) {
    try {
      process.kill(-pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Whether nothing listens on 127.0.0.1:port. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** Opens a page and collects its uncaught errors. */
async function open(browser: Browser, address: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(address);
  return { page, errors };
}

const VITE_INDEX = `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>pi-elements from Vite</title>
<link rel="icon" href="data:,">
<pi-session>
  <pi-extension-ui><pi-prompt></pi-prompt></pi-extension-ui>
  <pi-notifications floating></pi-notifications>
</pi-session>
<script type="module" src="/main.ts"></script>
`;

const VITE_MAIN = `import { PiSession, WebSocketTransport } from "@pi-elements/core";
import "@pi-elements/elements/all.js";

// The bridge that served this page, with the token from the page's address.
const socket = new URL("/", location.href);
socket.protocol = "ws:";
socket.searchParams.set("token", new URLSearchParams(location.search).get("token") ?? "");
// pi-session gives it to every pi-* element inside.
document.querySelector("pi-session")!.session = new PiSession(new WebSocketTransport(socket.href, { framing: "jsonl" }));
`;

/** Uses the public API of all three packages; compiled with tsc against the installed packages' types. */
const TYPES_CHECK = `import { createMemoryPair, PiSession, type UiSnapshot } from "@pi-elements/core";
import { PiSelect, PiSessionElement, setStrings } from "@pi-elements/elements";
import "@pi-elements/elements/all.js";
import "@pi-elements/elements/elements/select.js";
import { PiSession as BundledSession } from "@pi-elements/elements/bundle.js";
import { type RunningBridge, startBridge } from "@pi-elements/bridge";

const [client] = createMemoryPair();
const session = new PiSession(client);
const snapshot: UiSnapshot = session.ui.getSnapshot();
const dialogs: number = snapshot.dialogs.length;
const select: PiSelect = document.createElement("pi-select");
select.session = session;
const host: PiSessionElement | null = document.querySelector("pi-session");
setStrings("fr", { yes: "Oui" });
const bundled: typeof PiSession = BundledSession;
const start: () => Promise<RunningBridge> = () => startBridge({ port: 0, token: false });
// @ts-expect-error: "exports" keeps the package's files private
import("@pi-elements/core/dist/session/pi-session.js");
// The types are the packages' own, not \`any\`: each of these is an error.
// @ts-expect-error: a snapshot's dialogs are no string
const notText: string = snapshot.dialogs;
// @ts-expect-error: a port is a number
startBridge({ port: "8787" });
// @ts-expect-error: pi-select's options are strings
select.options = [1, 2];
export { bundled, dialogs, host, notText, start };
`;

const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    lib: ["ES2022", "DOM", "DOM.Iterable"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    noEmit: true,
    // `import "@pi-elements/elements/all.js"` must resolve too.
    noUncheckedSideEffectImports: true,
    // The packages' own declarations are what is under test; the libraries' (lit, zod) cost 15 s more to check.
    skipLibCheck: true,
    types: ["node"],
  },
  files: ["types-check.ts", "app/main.ts"],
};

/** The tarballs in `folder`: each package's name and the files it holds (`package/` taken off). */
async function listTarballs(folder: string): Promise<PackedFile[]> {
  const packed: PackedFile[] = [];
  for (const filename of readdirSync(folder).filter((f) => f.endsWith(".tgz"))) {
    const path = join(folder, filename);
    const list = await run("tar", ["-tzf", path], { cwd: folder });
    const manifest = await run("tar", ["-xzOf", path, "package/package.json"], { cwd: folder });
    packed.push({
      name: (JSON.parse(manifest.stdout) as { name: string }).name,
      filename: path,
      files: list.stdout
        .split("\n")
        .filter((line) => line.startsWith("package/") && !line.endsWith("/"))
        .map((line) => ({ path: line.slice("package/".length) })),
    });
  }
  return packed;
}

describe("the packed packages, installed with npm into a fresh project", { timeout: 900_000 }, () => {
  // As the README lays it out: a clone of pi-elements, the tarballs beside it, and the user's folder beside both.
  const work = mkdtempSync(join(tmpdir(), "pi-elements-packaging-"));
  const clone = join(work, "pi-elements");
  const tarballs = join(work, "pi-elements-tarballs");
  const project = join(work, "my-pi-page");
  let packed: PackedFile[] = [];
  let browser: Browser;
  const bridges: Bridge[] = [];
  const homes: (() => void)[] = [];
  const models: ScriptedModel[] = [];

  before(async () => {
    mkdirSync(project);
    mkdirSync(NPM_CACHE, { recursive: true });
    // README.md's pack commands, as written, in a fresh clone of this repository (its committed HEAD): they install,
    // build and pack with pnpm through npx, and leave the clone as it was.
    await run("git", ["clone", "--quiet", "--no-hardlinks", ROOT, clone], { cwd: work });
    const packCommands = readmeBlock("pack").trim().split("\n");
    assert.ok(packCommands.length >= 3, "the README installs, builds and packs");
    for (const command of packCommands) {
      assert.match(command, /^npx --yes pnpm@12\.4\.2 /, `${command}: pnpm through npx, as the two commands use it`);
      await run("bash", ["-c", command], { cwd: clone, env: userEnv({ PUPPETEER_SKIP_DOWNLOAD: "true" }) });
    }
    const status = await run("git", ["status", "--porcelain", "--ignored=no"], { cwd: clone });
    assert.equal(status.stdout, "", "the README's pack commands leave the clone clean");
    packed = await listTarballs(tarballs);
    writeFileSync(join(project, "package.json"), `${JSON.stringify({ private: true, type: "module" }, null, 2)}\n`);
    // README.md's npm install line, as written, in the user's folder beside the clone; it must name every tarball.
    const install = readmeBlock("commands")
      .split("\n")
      .find((line) => line.startsWith("npm install "));
    assert.ok(install, "the README installs the tarballs with npm install");
    const named = install
      .split(/\s+/)
      .slice(2)
      .map((path) => join(project, path))
      .sort();
    assert.deepEqual(named, packed.map((p) => p.filename).sort(), "the npm install line names every tarball packed");
    await run("bash", ["-c", install], {
      cwd: project,
      env: userEnv({
        npm_config_cache: NPM_CACHE,
        npm_config_prefer_offline: "true",
        npm_config_audit: "false",
        npm_config_fund: "false",
      }),
    });
    const typesNode = JSON.parse(readFileSync(join(ROOT, "node_modules/@types/node/package.json"), "utf8")) as {
      version: string;
    };
    await run(
      "npm",
      [
        "install",
        "--no-audit",
        "--no-fund",
        "--prefer-offline",
        "--cache",
        NPM_CACHE,
        `@types/node@${typesNode.version}`,
      ],
      { cwd: project, env: userEnv() },
    );
    browser = await chromium.launch(launchOptions());
  });

  after(async () => {
    await browser?.close();
    for (const bridge of bridges) await stopBridgeProcess(bridge);
    for (const model of models) await model.close();
    for (const cleanup of homes) cleanup();
    rmSync(work, { recursive: true, force: true });
  });

  it("packs each package with its LICENSE, README and every file its manifest points at, and real versions", () => {
    assert.deepEqual(packed.map((p) => p.name).sort(), PACKAGES.map((name) => `@pi-elements/${name}`).sort());
    for (const pack of packed) {
      const files = pack.files.map((f) => f.path);
      for (const required of ["LICENSE", "README.md", "package.json"]) {
        assert.ok(files.includes(required), `${pack.name} ships ${required}`);
      }
      assert.match(readFileSync(join(project, "node_modules", pack.name, "LICENSE"), "utf8"), /^MIT License/);
      const manifest = JSON.parse(readFileSync(join(project, "node_modules", pack.name, "package.json"), "utf8"));
      assert.equal(manifest.license, "MIT");
      assert.ok(manifest.sideEffects !== undefined, `${pack.name} declares sideEffects`);
      assert.ok(!JSON.stringify(manifest).includes("workspace:"), `${pack.name} has no workspace: range left`);
      for (const target of manifestTargets(manifest, files)) {
        assert.ok(files.includes(target), `${pack.name}: ${target} (named in package.json) is in the tarball`);
      }
    }
    const elements = JSON.parse(
      readFileSync(join(project, "node_modules/@pi-elements/elements/package.json"), "utf8"),
    ) as { dependencies: Record<string, string> };
    assert.equal(elements.dependencies["@pi-elements/core"], "0.1.0");
  });

  it("imports the core and the bridge in Node from the project, with their dependencies installed", async () => {
    const script = `
      const core = await import("@pi-elements/core");
      const bridge = await import("@pi-elements/bridge");
      const running = await bridge.startBridge({ port: 0, token: false, agent: { command: process.execPath, args: ["-e", "setTimeout(() => {}, 60000)"] }, log: () => {} });
      console.log(JSON.stringify({ session: typeof core.PiSession, resolved: import.meta.resolve("@pi-elements/elements/all.js"), url: running.url }));
      await running.close();`;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: project });
    const result = JSON.parse(stdout) as { session: string; resolved: string; url: string };
    assert.equal(result.session, "function");
    assert.equal(fileURLToPath(result.resolved), join(project, "node_modules/@pi-elements/elements/dist/all.js"));
    assert.match(result.url, /^ws:\/\/127\.0\.0\.1:\d+\/$/);
  });

  it("type-checks a file using the public API against the installed types (tsc --noEmit)", async () => {
    mkdirSync(join(project, "app"), { recursive: true });
    writeFileSync(join(project, "app/index.html"), VITE_INDEX);
    writeFileSync(join(project, "app/main.ts"), VITE_MAIN);
    writeFileSync(join(project, "types-check.ts"), TYPES_CHECK);
    writeFileSync(join(project, "tsconfig.json"), `${JSON.stringify(TSCONFIG, null, 2)}\n`);
    await run(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], {
      cwd: project,
    });
  });

  it("builds a Vite app that imports the core and all.js; served by the bridge, it answers pi's dialog", async () => {
    const app = join(project, "app");
    if (!existsSync(join(app, "main.ts"))) {
      mkdirSync(app, { recursive: true });
      writeFileSync(join(app, "index.html"), VITE_INDEX);
      writeFileSync(join(app, "main.ts"), VITE_MAIN);
    }
    await run(process.execPath, [join(ROOT, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"], {
      cwd: app,
    });
    const pi = isolatedPi(EXTENSION);
    homes.push(pi.cleanup);
    const { command, args } = pi.options.agent;
    const bridge = await startBridgeProcess(
      join(project, "node_modules/.bin/pi-bridge"),
      ["--port", "0", "--static", join(app, "dist"), "--cwd", pi.cwd, "--", command, ...args],
      { cwd: project, env: userEnv(pi.options.env) },
    );
    bridges.push(bridge);
    const { page, errors } = await open(browser, bridge.page);
    await promptReady(page);
    const prompt = page.locator("pi-prompt").getByRole("textbox");
    await prompt.fill("/ui-confirm");
    await prompt.press("Enter");
    await page.locator("pi-extension-ui pi-confirm").getByRole("button", { name: "Yes" }).click();
    await page.locator("pi-notifications", { hasText: "ui-confirm -> true" }).waitFor();
    assert.deepEqual(errors, []);
    await page.close();
    await stopBridgeProcess(bridge);
  });

  for (const version of PI_VERSIONS) {
    it(`follows README.md's embedding section as written: its page, extension and bridge command (pi ${version.version})`, async (t) => {
      writeFileSync(join(project, "index.html"), readmeBlock("index.html"));
      writeFileSync(join(project, "ext.ts"), readmeBlock("ext.ts"));
      const commands = readmeBlock("commands").split("\n");
      const bridgeCommand = commands.find((line) => line.startsWith("npx pi-bridge "));
      assert.ok(bridgeCommand, "the README starts the bridge with npx pi-bridge");
      assert.ok(await portIsFree(8787), "the README's bridge uses port 8787, which something else holds");
      // `pi` on PATH, as the README asks: one the tests install, with a throwaway home.
      const bin = mkdtempSync(join(tmpdir(), "pi-elements-path-"));
      homes.push(() => rmSync(bin, { recursive: true, force: true }));
      writeFileSync(join(bin, "pi"), `#!/bin/sh\nexec "${version.node}" "${piScript(version)}" "$@"\n`);
      chmodSync(join(bin, "pi"), 0o755);
      const pi = isolatedPi(undefined, { pi: version });
      homes.push(pi.cleanup);
      const env = userEnv({ ...pi.options.env, PATH: `${bin}:${process.env.PATH ?? ""}` });
      const bridge = await startBridgeProcess("bash", ["-c", bridgeCommand], { cwd: project, env });
      bridges.push(bridge);
      // Stopped even when an assertion fails: the next test's bridge needs port 8787.
      t.after(() => stopBridgeProcess(bridge));
      assert.match(bridge.page, /^http:\/\/127\.0\.0\.1:8787\/\?token=/);

      const { page, errors } = await open(browser, bridge.page);
      await promptReady(page);
      const prompt = page.locator("pi-prompt").getByRole("textbox");
      await prompt.fill("/hello");
      await prompt.press("Enter");
      const input = page.locator("pi-extension-ui pi-input").getByRole("textbox");
      await input.waitFor();
      const screenshot = process.env.PACKAGING_SCREENSHOT;
      if (screenshot) await page.screenshot({ path: `${screenshot}-${version.version}-dialog.png` });
      await input.fill("Grace");
      await input.press("Enter");
      await page.locator("pi-notifications", { hasText: "Hello, Grace!" }).waitFor();
      if (screenshot) await page.screenshot({ path: `${screenshot}-${version.version}-answered.png` });
      // The page as the README gives it passes axe (its landmarks too: the elements sit in a main).
      await page.addScriptTag({ path: AXE });
      for (const colorScheme of ["light", "dark"] as const) {
        assert.deepEqual(await axeViolations(page, colorScheme), [], `axe finds nothing in ${colorScheme}`);
      }
      assert.deepEqual(errors, []);
      await page.close();
    });
  }

  for (const version of PI_VERSIONS) {
    it(`follows README.md's complete pi web UI as written: a turn with a bash run, the stats, axe-clean, /hello (pi ${version.version})`, async (t) => {
      writeFileSync(join(project, "index.html"), readmeBlock("full index.html"));
      writeFileSync(join(project, "ext.ts"), readmeBlock("ext.ts"));
      const bridgeCommand = readmeBlock("commands")
        .split("\n")
        .find((line) => line.startsWith("npx pi-bridge "));
      assert.ok(bridgeCommand, "the README starts the bridge with npx pi-bridge");
      assert.ok(await portIsFree(8787), "the README's bridge uses port 8787, which something else holds");
      const bin = mkdtempSync(join(tmpdir(), "pi-elements-path-"));
      homes.push(() => rmSync(bin, { recursive: true, force: true }));
      writeFileSync(join(bin, "pi"), `#!/bin/sh\nexec "${version.node}" "${piScript(version)}" "$@"\n`);
      chmodSync(join(bin, "pi"), 0o755);
      // pi set up as a user sets it up with a model of their own: a models.json in its agent dir (the scripted
      // model, pi's only one, so the one it starts with).
      const model = await startScriptedModel([
        { toolCalls: [{ name: "bash", arguments: { command: FULL_PAGE_COMMAND } }] },
        { text: FULL_PAGE_ANSWER, delayMs: 5 },
      ]);
      models.push(model);
      const pi = isolatedPi(undefined, { pi: version, model });
      homes.push(pi.cleanup);
      const env = userEnv({ ...pi.options.env, PATH: `${bin}:${process.env.PATH ?? ""}` });
      const bridge = await startBridgeProcess("bash", ["-c", bridgeCommand], { cwd: project, env });
      bridges.push(bridge);
      // Stopped even when an assertion fails: the next pi version's run needs port 8787.
      t.after(() => stopBridgeProcess(bridge));

      const { page, errors } = await open(browser, bridge.page);
      await page.locator("pi-model-picker", { hasText: "Scripted test model" }).first().waitFor();
      const prompt = page.locator("pi-prompt").getByRole("textbox");
      await prompt.fill("Say hello with bash");
      await prompt.press("Enter");
      const transcript = page.locator("pi-transcript");
      await transcript.getByRole("article").filter({ hasText: FULL_PAGE_ANSWER }).waitFor();
      await page.locator("pi-transcript pi-tool-card", { hasText: "hello from bash" }).waitFor();
      await page.locator("pi-session-stats", { hasText: "↑" }).waitFor();
      assert.equal(await transcript.getByRole("article").count(), 3, "the prompt, the bash run, the answer");
      assert.equal(await page.locator("pi-transcript [aria-busy=true]").count(), 0, "nothing streams any more");

      await page.addScriptTag({ path: AXE });
      const screenshot = process.env.PACKAGING_SCREENSHOT;
      for (const colorScheme of ["light", "dark"] as const) {
        assert.deepEqual(await axeViolations(page, colorScheme), [], `axe finds nothing in ${colorScheme}`);
        if (screenshot) {
          for (const width of [1280, 375]) {
            await page.setViewportSize({ width, height: width === 375 ? 720 : 800 });
            await page.screenshot({ path: `${screenshot}-full-${version.version}-${colorScheme}-${width}.png` });
          }
        }
      }
      // The extension's dialog works in this page too.
      await prompt.fill("/hello");
      await prompt.press("Enter");
      const input = page.locator("pi-extension-ui pi-input").getByRole("textbox");
      await input.fill("Grace");
      await input.press("Enter");
      await page.locator("pi-notifications", { hasText: "Hello, Grace!" }).waitFor();
      assert.deepEqual(errors, []);
      await page.close();
      await stopBridgeProcess(bridge);
    });
  }
});
