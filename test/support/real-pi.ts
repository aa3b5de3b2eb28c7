/**
 * How the tests run the real pi 0.73.1 (the dev dependency): its bin script with this Node, in RPC mode, with a
 * throwaway HOME and agent dir, no session file, discovery of extensions/skills/prompts/context files off, offline,
 * and only the given extension. Extension commands need no API key; nothing touches the user's ~/.pi.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AgentCommand } from "../../packages/bridge/src/index.js";
import { findInstalledPi } from "../../packages/bridge/src/resolve-agent.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface IsolatedPi {
  /** Spread into `startBridge()`'s options. */
  options: { agent: AgentCommand; cwd: string; env: NodeJS.ProcessEnv };
  home: string;
  /** Removes the throwaway home. */
  cleanup(): void;
}

export function isolatedPi(extension: string): IsolatedPi {
  const script = findInstalledPi(ROOT);
  assert.ok(script, "@mariozechner/pi-coding-agent is installed");
  const home = mkdtempSync(join(tmpdir(), "pi-test-home-"));
  return {
    options: {
      agent: {
        command: process.execPath,
        args: [script, "--mode", "rpc", "--no-session", "-ne", "-ns", "-np", "-nc", "--offline", "-e", extension],
      },
      cwd: home,
      env: { ...process.env, HOME: home, PI_CODING_AGENT_DIR: join(home, "agent"), PI_OFFLINE: "1" },
    },
    home,
    cleanup: () => rmSync(home, { recursive: true, force: true }),
  };
}
