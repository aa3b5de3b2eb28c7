/**
 * Finds the default agent, `pi --mode rpc`, and a Node that can run it.
 *
 * pi is published under two names: `@earendil-works/pi-coding-agent` (1.x, the current line) and
 * `@mariozechner/pi-coding-agent` (up to 0.73.x). The lookup takes the newest installed version of either, first from
 * the working directory's node_modules chain, then from the bridge's own location, else `pi` on PATH; it says which
 * it chose (`AgentChoice.description`).
 *
 * It runs the package's bin file with a Node that satisfies the package's own `engines.node` (pi 1.x needs a newer
 * Node than 0.73.x): the one given (`--node`, `PI_BRIDGE_NODE`), else this Node, else the Node that the npm package
 * `node-<platform>-<arch>` installs beside pi, else `node` on PATH; if none fits, it throws an error that says what
 * is needed and how to pass it. Running the bin file directly avoids shell wrappers (`node_modules/.bin/pi` is a shell
 * script under pnpm), so signals reach pi itself.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import semver from "semver";
import type { AgentCommand } from "./agent-process.js";

/** pi's package names, the current line first. */
export const PI_PACKAGES = ["@earendil-works/pi-coding-agent", "@mariozechner/pi-coding-agent"] as const;
export const DEFAULT_AGENT_ARGS = ["--mode", "rpc"] as const;
/** The first pi version with `--approve` (project trust). */
const APPROVE_SINCE = "0.79.0";

export interface InstalledPi {
  packageName: string;
  version: string;
  /** The package's `bin.pi` script, absolute. */
  script: string;
  /** The package's `engines.node`, when it states one. */
  nodeRange: string | undefined;
}

/**
 * The newest pi installed in `fromDir`'s node_modules chain, either name. Each name counts at its nearest
 * installation (the one Node's resolution would find).
 */
export function findInstalledPi(fromDir: string): InstalledPi | undefined {
  const paths = createRequire(join(resolve(fromDir), "noop.js")).resolve.paths("pi") ?? [];
  const found: InstalledPi[] = [];
  for (const packageName of PI_PACKAGES) {
    for (const nodeModules of paths) {
      const pi = readPi(join(nodeModules, packageName), packageName);
      if (pi === undefined) continue;
      found.push(pi);
      break;
    }
  }
  return found.sort((a, b) => semver.rcompare(a.version, b.version))[0];
}

function readPi(packageDir: string, packageName: string): InstalledPi | undefined {
  // The packages' exports do not include package.json, so it is read from the node_modules chain directly.
  const manifestPath = join(packageDir, "package.json");
  if (!existsSync(manifestPath)) return undefined;
  let manifest: { version?: unknown; bin?: unknown; engines?: { node?: unknown } };
  try {
    manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
  } catch {
    return undefined;
  }
  const bin =
    typeof manifest.bin === "string" ? manifest.bin : (manifest.bin as Record<string, unknown> | undefined)?.pi;
  const version = typeof manifest.version === "string" ? semver.valid(manifest.version) : null;
  if (typeof bin !== "string" || version === null) return undefined;
  const script = join(packageDir, bin);
  if (!existsSync(script)) return undefined;
  const range = manifest.engines?.node;
  return { packageName, version, script, nodeRange: typeof range === "string" ? range : undefined };
}

export interface AgentChoiceOptions {
  /** A Node binary to run pi with (checked against pi's `engines`). Default: `$PI_BRIDGE_NODE`, then the search. */
  node?: string;
  /** Pass `--approve` (trust the project's `.pi/` files for this run); only pi 0.79 and newer know it. */
  approve?: boolean;
  /** For the search and the messages. Default: `process.env`. */
  env?: NodeJS.ProcessEnv;
}

export interface AgentChoice extends AgentCommand {
  /** One line for the log: which pi, from where, on which Node, or that `pi` on PATH is used. */
  description: string;
  /** Things the user should know, one line each (e.g. project extensions that will not load). */
  notes: string[];
}

/**
 * The default agent for a bridge whose agent works in `cwd`. Throws when the installed pi needs a newer Node than
 * any found, or when `approve` is asked of a pi that does not know it.
 */
export function defaultAgentCommand(cwd: string = process.cwd(), options: AgentChoiceOptions = {}): AgentChoice {
  const env = options.env ?? process.env;
  const here = dirname(fileURLToPath(import.meta.url));
  const pi = findInstalledPi(cwd) ?? findInstalledPi(here);
  const notes: string[] = [];
  if (pi === undefined) {
    const args = [...DEFAULT_AGENT_ARGS, ...(options.approve ? ["--approve"] : [])];
    return {
      command: "pi",
      args,
      description: `pi on PATH (neither ${PI_PACKAGES.join(" nor ")} is installed in ${cwd} or beside the bridge)`,
      notes,
    };
  }
  const knowsApprove = semver.gte(pi.version, APPROVE_SINCE);
  if (options.approve && !knowsApprove) {
    throw new Error(`--approve needs pi ${APPROVE_SINCE} or newer; the installed ${pi.packageName} is ${pi.version}.`);
  }
  if (knowsApprove && !options.approve && existsSync(join(cwd, ".pi", "extensions"))) {
    notes.push(
      `${join(cwd, ".pi", "extensions")} will not be loaded: pi ${pi.version} loads a project's extensions in RPC ` +
        "mode only when the project is trusted. Start pi-bridge with --approve to trust it for this run.",
    );
  }
  const node = nodeFor(pi, options.node ?? env.PI_BRIDGE_NODE, env);
  return {
    command: node.path,
    args: [pi.script, ...DEFAULT_AGENT_ARGS, ...(options.approve ? ["--approve"] : [])],
    description: `${pi.packageName} ${pi.version} (${pi.script}) on Node ${node.version} (${node.path})`,
    notes,
  };
}

interface NodeBinary {
  path: string;
  version: string;
}

/** A Node that satisfies pi's `engines.node`. */
function nodeFor(pi: InstalledPi, given: string | undefined, env: NodeJS.ProcessEnv): NodeBinary {
  const range = pi.nodeRange ?? "*";
  const fits = (node: NodeBinary | undefined): boolean => node !== undefined && semver.satisfies(node.version, range);
  if (given !== undefined && given !== "") {
    const node = nodeVersion(given);
    if (node === undefined) throw new Error(`The Node given for pi (${given}) does not run.`);
    if (!fits(node)) {
      throw new Error(`pi ${pi.version} needs Node ${range}; the Node given (${given}) is ${node.version}.`);
    }
    return node;
  }
  const self = { path: process.execPath, version: process.version };
  if (fits(self)) return self;
  const beside = besidePi(pi);
  for (const candidate of [beside, onPath("node", env)]) {
    if (candidate === undefined) continue;
    const node = nodeVersion(candidate);
    if (node !== undefined && fits(node)) return node;
  }
  throw new Error(
    `${pi.packageName} ${pi.version} needs Node ${range}, and the bridge runs on ${process.version} with no ` +
      `suitable Node found. Pass one with --node /path/to/node (or PI_BRIDGE_NODE=/path/to/node), or install the ` +
      `npm package node-${process.platform}-${process.arch} beside pi.`,
  );
}

/** The Node of the npm package `node-<platform>-<arch>` in pi's node_modules chain. */
function besidePi(pi: InstalledPi): string | undefined {
  const paths = createRequire(pi.script).resolve.paths("node") ?? [];
  for (const nodeModules of paths) {
    const binary = join(nodeModules, `node-${process.platform}-${process.arch}`, "bin", "node");
    if (existsSync(binary)) return binary;
  }
  return undefined;
}

function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

function nodeVersion(path: string): NodeBinary | undefined {
  const result = spawnSync(path, ["--version"], { encoding: "utf8", timeout: 10_000, shell: false });
  const version = semver.valid(result.stdout?.trim() ?? "");
  return result.status === 0 && version !== null ? { path, version } : undefined;
}
