// The demo, in one command (scripts/demo.sh builds first): the bridge with a real pi running the showcase
// extension, and the demo app served by Vite. By default pi needs no API key: it talks to the demo's scripted
// OpenAI-compatible model (demo/model/script.ts) on loopback, with a throwaway HOME, and works in a throwaway folder
// seeded with a tiny project, where the tools it runs really act. `--real` uses your own pi settings, keys and model
// instead. `--gallery` serves the gallery and playground with no agent. `--help` lists every option.

import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { defaultAgentCommand, type RunningBridge, startBridge } from "@pi-elements/bridge";
import { createServer } from "vite";
import { demoReply, SEED_FILES } from "../demo/model/script.js";
import { staticFileHandler } from "../packages/bridge/src/static-files.js";
import { type ScriptedModel, startScriptedModel } from "../test/support/scripted-model.js";
import { buildStorybook } from "./storybook-build.mjs";

const HELP = `Usage: bash scripts/demo.sh [options]

Serves the demo (gallery, playground, live page) and a real pi behind the bridge.

  (no option)        pi talks to the demo's scripted model: no API key, nothing leaves this machine. It runs
                     with a throwaway HOME (its session files too) and works in a throwaway folder seeded with a
                     tiny project; the tools it calls (bash, edit, write) really run there.
  --real             pi uses your own settings and keys (~/.pi/agent) and your default model: a real provider.
  --model P/ID       with --real: the model to start with, e.g. anthropic/claude-sonnet-4-5 (pi's --model).
  --cwd DIR          where pi works. Default: a throwaway folder seeded with the tiny project (also with --real,
                     so a real model edits nothing of yours unless you say so).
  --pace MS          the scripted model's milliseconds between two streamed chunks (default 30; 0: at once).
  --gallery          the gallery and playground only, no pi.
  --isolated         the default now (a throwaway HOME); kept so older commands still work.
  --port N           the page's port (default 5173; 0 picks a free one).
  --bridge-port N    the bridge's port (default 8787; 0 picks a free one).
  --workshop-port N  the workshop's (Storybook's) port (default 6006; 0 or a taken one: a free one).
  --no-workshop      no Storybook.
  --workshop-dev     the workshop on Storybook's dev server (reloads as you edit stories; its pages open slower)
                     instead of built once at start (a few seconds) and served as files.
  --help             this text.
`;

/** The command line, a wrong option said in one line with the help (not a stack trace). */
function commandLine() {
  try {
    return parseArgs({
      options: {
        gallery: { type: "boolean", default: false },
        real: { type: "boolean", default: false },
        isolated: { type: "boolean", default: false },
        model: { type: "string" },
        cwd: { type: "string" },
        pace: { type: "string", default: "30" },
        port: { type: "string", default: "5173" },
        "bridge-port": { type: "string", default: "8787" },
        "workshop-port": { type: "string", default: "6006" },
        "no-workshop": { type: "boolean", default: false },
        "workshop-dev": { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${HELP}`);
    process.exit(2);
  }
}

const { values } = commandLine();

if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}
const pace = Number(values.pace);
if (!Number.isFinite(pace) || pace < 0) {
  process.stderr.write(`--pace wants milliseconds (a number, 0 or more), not ${JSON.stringify(values.pace)}\n`);
  process.exit(2);
}
if (values.model !== undefined && !values.real) {
  process.stderr.write("--model is for --real: the scripted model is the only one without a key\n");
  process.exit(2);
}

const root = fileURLToPath(new URL("..", import.meta.url));
const showcase = join(root, "demo/showcase/pi-extension.ts");
/** How pi names the scripted model: `--model demo/scripted`, shown by the model picker as "(demo) Scripted model". */
const DEMO_PROVIDER = "demo";
const DEMO_MODEL_ID = "scripted";
/** Where the demo builds the workshop, under demo/ (the test command's own build goes to storybook-static/suite). */
const BUILT_WORKSHOP = "storybook-static/demo";

/** pi's models.json (in the throwaway agent dir) that names the scripted server as an OpenAI-compatible provider. */
function modelsJson(model: ScriptedModel): string {
  const scripted = {
    id: DEMO_MODEL_ID,
    name: "Scripted model",
    reasoning: true,
    contextWindow: 128000,
    maxTokens: 4096,
  };
  // pi wants a key for a provider; the scripted server ignores it.
  const provider = { baseUrl: model.baseUrl, api: "openai-completions", apiKey: "none", models: [scripted] };
  return `${JSON.stringify({ providers: { [DEMO_PROVIDER]: provider } }, null, 2)}\n`;
}

/** Folders made for this run, removed when it stops. */
const throwaway: string[] = [];

/** A fresh folder with the tiny project the scripted turns work on. */
function seededWorkspace(): string {
  const dir = mkdtempSync(join(tmpdir(), "pi-elements-demo-work-"));
  throwaway.push(dir);
  for (const [path, content] of Object.entries(SEED_FILES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

const vite = await createServer({
  configFile: join(root, "demo/vite.config.ts"),
  server: { port: Number(values.port) },
});
await vite.listen();
const pageUrl = vite.resolvedUrls?.local[0] ?? `http://127.0.0.1:${values.port}/`;

/** `port` if it is free on loopback, else a free one the system picks. */
function freePort(port: number): Promise<number> {
  return new Promise((resolvePort) => {
    const probe = createNetServer();
    probe.once("error", () => {
      const any = createNetServer();
      any.listen(0, "127.0.0.1", () => {
        const { port: picked } = any.address() as { port: number };
        any.close(() => resolvePort(picked));
      });
    });
    probe.listen(port, "127.0.0.1", () => {
      const { port: listened } = probe.address() as { port: number };
      probe.close(() => resolvePort(listened));
    });
  });
}

interface Workshop {
  url: string;
  /** The port asked for, when it was taken and the workshop listens on another. */
  moved: number | undefined;
  close(): Promise<void>;
}

/**
 * The workshop: the gallery's stories on Storybook (demo/.storybook), once it answers. Built (`storybook build` into
 * demo/storybook-static/demo) and served as files, the way a workshop is published: its docs pages open in a second
 * or two. Storybook's dev server (--workshop-dev) compiles each module on first request, so a docs page, whose dialog
 * stories each load a preview of their own, took 11-13 s to open the first time, and the stores Storybook's previews
 * keep in step with its manager gave up waiting meanwhile ("UniversalStore" errors in the console).
 */
async function startWorkshop(): Promise<Workshop> {
  const wanted = Number(values["workshop-port"]);
  const port = await freePort(wanted);
  const moved = wanted === 0 || port === wanted ? undefined : wanted;
  const url = `http://127.0.0.1:${port}/`;
  if (!values["workshop-dev"]) {
    await buildStorybook(BUILT_WORKSHOP);
    const server = createHttpServer(await staticFileHandler(join(root, "demo", BUILT_WORKSHOP)));
    await new Promise<void>((listening, failed) => {
      server.once("error", failed);
      server.listen(port, "127.0.0.1", () => listening());
    });
    return { url, moved, close: () => new Promise((closed) => server.close(() => closed())) };
  }
  const child = spawn(
    join(root, "demo/node_modules/.bin/storybook"),
    [
      "dev",
      "-c",
      ".storybook",
      "-p",
      String(port),
      "--exact-port",
      "--host",
      "127.0.0.1",
      "--ci",
      "--no-open",
      "--quiet",
    ],
    {
      cwd: join(root, "demo"),
      env: { ...process.env, STORYBOOK_DISABLE_TELEMETRY: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const log = (chunk: Buffer) => {
    for (const line of chunk.toString().split("\n")) if (line.trim()) console.error(`[workshop] ${line}`);
  };
  child.stderr?.on("data", log);
  const exited = new Promise<never>((_, reject) =>
    child.once("exit", (code) => reject(new Error(`Storybook exited (${code}) before it served ${url}`))),
  );
  const ready = (async () => {
    for (let i = 0; i < 600; i++) {
      try {
        if ((await fetch(`${url}index.json`)).ok) return;
      } catch {}
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`Storybook did not answer at ${url} within 2 minutes`);
  })();
  await Promise.race([ready, exited]);
  // On any exit (Vite ends the process on SIGTERM by itself, possibly before `stop` is done), the dev server too.
  process.on("exit", () => {
    if (child.exitCode === null) child.kill("SIGTERM");
  });
  return {
    url,
    moved,
    close: async () => {
      if (child.exitCode !== null) return;
      const gone = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await gone;
    },
  };
}

// Built beside pi's start (the build is a few seconds of work on its own).
const workshopStarting: Promise<Workshop | undefined> = values["no-workshop"]
  ? Promise.resolve(undefined)
  : startWorkshop().catch((error: Error) => {
      console.error(`[workshop] ${error.message}; the demo runs without it`);
      return undefined;
    });

let bridge: RunningBridge | undefined;
let model: ScriptedModel | undefined;
let cwd = "";
if (!values.gallery) {
  const pi = defaultAgentCommand(root);
  console.error(`[bridge] agent: ${pi.description}`);
  const env = { ...process.env };
  const args = [...pi.args, "-e", showcase];
  cwd =
    values.cwd === undefined
      ? seededWorkspace()
      : resolve(process.env["PI_DEMO_INVOKED_FROM"] ?? process.cwd(), values.cwd);
  // pi keeps real session files, so every session action works (Export HTML, New session, Fork): in the throwaway
  // HOME's agent dir with the scripted model; with --real, in a throwaway folder of their own unless --cwd names a
  // folder of yours (then where your pi keeps that folder's sessions).
  if (values.real && values.cwd === undefined) {
    const sessions = mkdtempSync(join(tmpdir(), "pi-elements-demo-sessions-"));
    throwaway.push(sessions);
    args.push("--session-dir", sessions);
  }
  if (values.real) {
    if (values.model !== undefined) args.push("--model", values.model);
  } else {
    // pi's own models.json in a throwaway agent dir names the scripted server, so no setting or key of yours is read.
    model = await startScriptedModel((request) => demoReply(request, pace));
    const home = mkdtempSync(join(tmpdir(), "pi-elements-demo-home-"));
    throwaway.push(home);
    const agentDir = join(home, "agent");
    mkdirSync(agentDir, { recursive: true });
    writeFileSync(join(agentDir, "models.json"), modelsJson(model));
    Object.assign(env, { HOME: home, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1" });
    args.push("--offline", "-ne", "-ns", "-np", "-nc", "--model", `${DEMO_PROVIDER}/${DEMO_MODEL_ID}`);
  }
  const options = {
    agent: { command: pi.command, args },
    cwd,
    env,
    log: (line: string) => console.error(`[bridge] ${line}`),
  };
  try {
    bridge = await startBridge({ ...options, port: Number(values["bridge-port"]) });
  } catch {
    bridge = await startBridge({ ...options, port: 0 }); // the port was taken: pick a free one
  }
}

const workshop = await workshopStarting;

console.log("");
console.log(`  pi-elements demo`);
console.log(`  Gallery and playground:  ${pageUrl}`);
if (workshop) {
  console.log(`  Workshop (Storybook):    ${workshop.url}`);
  if (workshop.moved)
    console.log(`  (port ${workshop.moved} was taken: the workshop moved to ${new URL(workshop.url).port})`);
}
if (bridge) {
  console.log(`  Live page with real pi:  ${pageUrl}?bridge=${encodeURIComponent(bridge.url)}#/live`);
  console.log(`  (the bridge token is in that link; the bridge only accepts loopback pages)`);
  console.log(
    model
      ? `  Model: the demo's scripted model (no API key; its replies are scripted, the tools pi runs are real)`
      : `  Model: ${values.model ?? "your pi's default"}, with your pi settings and keys`,
  );
  console.log(
    `  pi works in:             ${cwd}${values.cwd === undefined ? " (a throwaway copy of a tiny project)" : ""}`,
  );
}
console.log(`  Ctrl+C stops everything.`);
console.log("");

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await Promise.allSettled([bridge?.close(), vite.close(), model?.close(), workshop?.close()]);
  process.exit(0);
};
process.on("exit", () => {
  for (const dir of throwaway) rmSync(dir, { recursive: true, force: true });
});
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
