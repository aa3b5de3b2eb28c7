/**
 * Finds the default agent, `pi --mode rpc`, and a Node that can run it.
 *
 * pi is published under two names: `@earendil-works/pi-coding-agent` (1.x, the current line) and
 * `@mariozechner/pi-coding-agent` (up to 0.73.x). The lookup takes the nearest installed pi of either name (of both
 * in one folder, the newer) in the working directory's node_modules chain up to its project's root, then in the
 * bridge's own installation, else `pi` on PATH, and never one from a folder that another user could have written
 * (see `searchInstalledPi`); it says which it chose and why (`AgentChoice.description`), and what it passed over.
 * With no pi anywhere it throws, saying how to install one, rather than starting a bridge whose agent cannot run.
 *
 * It runs the package's bin file with a Node that satisfies the package's own `engines.node` (pi 1.x needs a newer
 * Node than 0.73.x): the one given (`--node`, `PI_BRIDGE_NODE`), else this Node, else the Node that the npm package
 * `node-<platform>-<arch>` installs beside pi, else `node` on PATH; if none fits, it throws an error that says what
 * is needed and how to pass it. Running the bin file directly avoids shell wrappers (`node_modules/.bin/pi` is a shell
 * script under pnpm), so signals reach pi itself.
 */
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, readFileSync, realpathSync, type Stats, statSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, dirname, join, resolve, sep } from "node:path";
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

/** Where a pi was looked for, what was found, and what was passed over and why. */
export interface PiSearch {
  /** The pi to run, if any. */
  pi: InstalledPi | undefined;
  /** The node_modules folder it is in. */
  folder: string | undefined;
  /** The folders searched, as a phrase for the log: "from DIR up to ROOT (it has .git)". */
  scope: string;
  /** Candidates in the searched folders that are not run, and why (a folder others can write to, another user's). */
  refused: string[];
  /** Candidates further up than the search goes, which are not run. */
  ignored: string[];
}

/**
 * Looks for pi in the node_modules folders from `fromDir` up to its project's root, nearest first (as Node's own
 * resolution would), either name; of both names in one folder, the newer. The project's root is:
 * - for a folder inside a `node_modules` (an installed package, the bridge's own location), the folder that holds
 *   the outermost `node_modules`: the installation;
 * - else the nearest folder with `.git`, else the nearest with `package.json`, else `fromDir` alone.
 * A marker (`.git`, `package.json`) counts only if it belongs to the user or root. A candidate is refused when any
 * folder or file on its path (symlinks followed, up to `/`) belongs to another user than the current one or root,
 * is writable by every user without being a sticky folder, or is writable by a group other than the user's own
 * (POSIX only). So a pi planted in a shared folder above the project (the system's temp folder, a shared parent)
 * is never run; such a one is reported in `ignored`.
 */
export function searchInstalledPi(fromDir: string): PiSearch {
  const start = realOrResolved(fromDir);
  const root = projectRoot(start);
  const scope =
    root.dir === start ? `in ${start} (${root.reason})` : `from ${start} up to ${root.dir} (${root.reason})`;
  const refused: string[] = [];
  const ignored: string[] = [];
  let chosen: { pi: InstalledPi; folder: string } | undefined;
  for (const folder of nodeModulesChain(start)) {
    const inside = isWithin(folder, root.dir);
    const here = installedIn(folder);
    if (!inside) {
      for (const pi of here) {
        ignored.push(
          `${pi.packageName} ${pi.version} in ${folder}: outside the project, whose root is ${root.dir} (${root.reason})`,
        );
      }
      continue;
    }
    if (chosen !== undefined) continue;
    for (const pi of here) {
      const problem = distrust([join(folder, pi.packageName, "package.json"), pi.script]);
      if (problem === undefined) {
        chosen = { pi, folder };
        break;
      }
      refused.push(`${pi.packageName} ${pi.version} (${pi.script}): ${problem}`);
    }
  }
  return { pi: chosen?.pi, folder: chosen?.folder, scope, refused, ignored };
}

/** The pi `searchInstalledPi` would run from `fromDir`. */
export function findInstalledPi(fromDir: string): InstalledPi | undefined {
  return searchInstalledPi(fromDir).pi;
}

/** Both names' pi in one node_modules folder, the newer first. */
function installedIn(folder: string): InstalledPi[] {
  return PI_PACKAGES.map((name) => readPi(join(folder, name), name))
    .filter((pi): pi is InstalledPi => pi !== undefined)
    .sort((a, b) => semver.rcompare(a.version, b.version));
}

/** Node's node_modules folders for a module in `dir`, nearest first, up to `/node_modules`. */
function nodeModulesChain(dir: string): string[] {
  return createRequire(join(dir, "noop.js")).resolve.paths("pi") ?? [];
}

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function isWithin(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : `${dir}${sep}`);
}

function projectRoot(start: string): { dir: string; reason: string } {
  const parts = start.split(sep);
  const outermost = parts.indexOf("node_modules");
  if (outermost > 0) {
    return { dir: parts.slice(0, outermost).join(sep) || sep, reason: "the installation it is in" };
  }
  for (const marker of [".git", "package.json"]) {
    for (let dir = start; ; dir = dirname(dir)) {
      if (ownMarker(join(dir, marker))) return { dir, reason: `it has ${marker}` };
      if (dirname(dir) === dir) break;
    }
  }
  return { dir: start, reason: "no .git or package.json above it" };
}

/** The marker exists and belongs to the user or root. */
function ownMarker(path: string): boolean {
  try {
    const stat = lstatSync(path);
    const uid = process.getuid?.();
    return uid === undefined || stat.uid === uid || stat.uid === 0;
  } catch {
    return false;
  }
}

/**
 * Why the files at `paths` (and every folder above them, symlinks followed) are not the user's to trust, or
 * undefined when they are. Always undefined where there are no POSIX owners and modes (Windows).
 */
function distrust(paths: readonly string[]): string | undefined {
  const uid = process.getuid?.();
  const gid = process.getgid?.();
  if (uid === undefined || gid === undefined || process.platform === "win32") return undefined;
  const seen = new Set<string>();
  for (const path of paths) {
    for (const start of [path, realOrResolved(path)]) {
      for (let current = start; !seen.has(current); current = dirname(current)) {
        seen.add(current);
        const problem = distrustOne(current, uid, gid);
        if (problem !== undefined) return problem;
        if (dirname(current) === current) break;
      }
    }
  }
  return undefined;
}

function distrustOne(path: string, uid: number, gid: number): string | undefined {
  let stat: Stats;
  try {
    stat = statSync(path);
  } catch (error) {
    return `${path} cannot be checked (${(error as Error).message})`;
  }
  if (stat.uid !== uid && stat.uid !== 0) return `${path} belongs to another user (uid ${stat.uid})`;
  // In a sticky folder (the system's temp folder) others may add entries, which are theirs, but not replace ours.
  const sticky = stat.isDirectory() && (stat.mode & 0o1000) !== 0;
  if (sticky) return undefined;
  if ((stat.mode & 0o002) !== 0) return `${path} is writable by every user`;
  if ((stat.mode & 0o020) !== 0 && stat.gid !== gid) return `${path} is writable by group ${stat.gid}`;
  return undefined;
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
  /**
   * Where the bridge is installed, searched for pi after `cwd`. Default: the bridge's own location.
   * @internal For tests: a bridge installed with no pi beside it.
   */
  bridgeDir?: string;
}

export interface AgentChoice extends AgentCommand {
  /** One line for the log: which pi, from where, on which Node, and why that one; or that `pi` on PATH is used. */
  description: string;
  /** Things the user should know, one line each (e.g. project extensions that will not load). */
  notes: string[];
  /** Things the user must know, one line each: a pi that was found but not run, because others could change it. */
  warnings: string[];
}

/**
 * The default agent for a bridge whose agent works in `cwd`: the pi `searchInstalledPi` finds from `cwd`, else
 * from the bridge's own location, else `pi` on PATH (run through its package's script when it is a link to one, so
 * its engines are checked too). Throws when there is no pi at all, when pi needs a newer Node than any found, or when
 * `approve` is asked of a pi that does not know it.
 */
export function defaultAgentCommand(cwd: string = process.cwd(), options: AgentChoiceOptions = {}): AgentChoice {
  const env = options.env ?? process.env;
  const here = options.bridgeDir ?? dirname(fileURLToPath(import.meta.url));
  const searches = [searchInstalledPi(cwd)];
  if (searches[0]?.pi === undefined) searches.push(searchInstalledPi(here));
  const found = searches.find((search) => search.pi !== undefined);
  const notes = searches.flatMap((search) => search.ignored.map((line) => `not run: ${line}`));
  const warnings = searches.flatMap((search) =>
    search.refused.map(
      (line) => `not running ${line}. Install pi where only you can write, or name the agent after --.`,
    ),
  );
  const pi = found?.pi;
  if (found === undefined || pi === undefined) {
    const notFound = `no ${PI_PACKAGES.join(" or ")} to run was found ${searches.map((search) => search.scope).join(", nor ")}`;
    const path = onPath("pi", env);
    if (path === undefined) {
      throw new Error(
        `No pi to run: ${notFound}, and there is no pi on PATH. Install pi: ` +
          "npm install -g @earendil-works/pi-coding-agent (pi 1.x, which needs Node 22.19 or newer), or " +
          "npm install -g @mariozechner/pi-coding-agent@0.73 (on Node 20); or name the agent after -- " +
          "(pi-bridge -- /path/to/pi --mode rpc).",
      );
    }
    // pi's bin on PATH is, as npm and pnpm install it, a link to its package's script: the package says which pi it
    // is and which Node it needs, so it runs like an installed one (on a Node that fits, or not at all, in words).
    const linked = packageOfScript(path);
    if (linked === undefined) {
      return {
        command: path,
        args: [...DEFAULT_AGENT_ARGS, ...(options.approve ? ["--approve"] : [])],
        description: `pi on PATH (${path}; ${notFound})`,
        notes,
        warnings,
      };
    }
    return piCommand(linked, options, env, cwd, notes, warnings, `pi on PATH (${path}; ${notFound})`);
  }
  return piCommand(
    pi,
    options,
    env,
    cwd,
    notes,
    warnings,
    `the nearest pi, in ${found.folder}, searched ${found.scope}` +
      (found === searches[0] ? "" : `, the bridge's own installation (none was found ${searches[0]?.scope})`),
  );
}

/** pi's package whose bin script `path` is (through links), when it is one. */
function packageOfScript(path: string): InstalledPi | undefined {
  const script = realOrResolved(path);
  for (let dir = dirname(script); dirname(dir) !== dir; dir = dirname(dir)) {
    if (!existsSync(join(dir, "package.json"))) continue;
    // The nearest package.json is the script's package: pi's, or not pi at all.
    const name = PI_PACKAGES.find((packageName) => dir.endsWith(`${sep}${packageName.replace("/", sep)}`));
    const pi = name === undefined ? undefined : readPi(dir, name);
    return pi !== undefined && realOrResolved(pi.script) === script ? pi : undefined;
  }
  return undefined;
}

/** How to run `pi`: its bin script on a Node that satisfies its engines; `why` says where it was found. */
function piCommand(
  pi: InstalledPi,
  options: AgentChoiceOptions,
  env: NodeJS.ProcessEnv,
  cwd: string,
  notes: string[],
  warnings: string[],
  why: string,
): AgentChoice {
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
    description: `${pi.packageName} ${pi.version} (${pi.script}) on Node ${node.version} (${node.path}): ${why}`,
    notes,
    warnings,
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
    const node = nodeVersion(given, env);
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
    const node = nodeVersion(candidate, env);
    if (node !== undefined && fits(node)) return node;
  }
  throw new Error(
    `${pi.packageName} ${pi.version} needs Node ${range}, and the bridge runs on ${process.version} with no ` +
      `suitable Node found. Pass one with --node /path/to/node (or PI_BRIDGE_NODE=/path/to/node), or install the ` +
      `npm package node-${process.platform}-${process.arch} beside pi.`,
  );
}

/**
 * The Node of the npm package `node-<platform>-<arch>` in pi's own installation (the node_modules chain from pi's
 * script up to the folder that holds the outermost node_modules), if nobody else could have put it there.
 */
function besidePi(pi: InstalledPi): string | undefined {
  const root = projectRoot(dirname(pi.script));
  for (const nodeModules of nodeModulesChain(dirname(pi.script))) {
    if (!isWithin(nodeModules, root.dir)) break;
    const binary = join(nodeModules, `node-${process.platform}-${process.arch}`, "bin", "node");
    if (existsSync(binary) && distrust([binary]) === undefined) return binary;
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

function nodeVersion(path: string, env: NodeJS.ProcessEnv): NodeBinary | undefined {
  const result = spawnSync(path, ["--version"], { encoding: "utf8", timeout: 10_000, shell: false, env });
  const version = semver.valid(result.stdout?.trim() ?? "");
  return result.status === 0 && version !== null ? { path, version } : undefined;
}
