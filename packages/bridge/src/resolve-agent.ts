/**
 * Finds the default agent, `pi --mode rpc`: an installed `@mariozechner/pi-coding-agent` (looked up from the
 * working directory, then from the bridge's own location) run with this Node, else `pi` on PATH.
 *
 * Running the package's bin file with `process.execPath` avoids shell wrappers (`node_modules/.bin/pi` is a shell
 * script under pnpm), so signals reach pi itself.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { AgentCommand } from "./agent-process.js";

export const PI_PACKAGE = "@mariozechner/pi-coding-agent";
export const DEFAULT_AGENT_ARGS = ["--mode", "rpc"] as const;

/** The package's `bin.pi` script as an absolute path, or undefined when the package is not installed there. */
export function findInstalledPi(fromDir: string): string | undefined {
  // The package's exports do not include package.json, so look for it in the node_modules chain directly.
  const paths = createRequire(join(resolve(fromDir), "noop.js")).resolve.paths(PI_PACKAGE) ?? [];
  for (const nodeModules of paths) {
    const packageDir = join(nodeModules, PI_PACKAGE);
    const manifestPath = join(packageDir, "package.json");
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { bin?: string | Record<string, string> };
    const bin = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.pi;
    if (bin === undefined) continue;
    const script = join(packageDir, bin);
    if (existsSync(script)) return script;
  }
  return undefined;
}

export function defaultAgentCommand(cwd: string = process.cwd()): AgentCommand {
  const here = dirname(fileURLToPath(import.meta.url));
  const script = findInstalledPi(cwd) ?? findInstalledPi(here);
  if (script !== undefined) return { command: process.execPath, args: [script, ...DEFAULT_AGENT_ARGS] };
  return { command: "pi", args: [...DEFAULT_AGENT_ARGS] };
}
