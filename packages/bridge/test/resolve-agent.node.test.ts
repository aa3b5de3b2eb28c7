import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { defaultAgentCommand, findInstalledPi } from "../src/resolve-agent.js";

describe("the default agent", () => {
  it("is the installed pi's bin script, run with this Node, in rpc mode", () => {
    const script = findInstalledPi(process.cwd());
    assert.ok(script?.endsWith(join("@mariozechner", "pi-coding-agent", "dist", "cli.js")), script);
    assert.deepEqual(defaultAgentCommand(process.cwd()), {
      command: process.execPath,
      args: [script, "--mode", "rpc"],
    });
  });

  it("is found from the bridge's own location when the working directory has none", () => {
    const empty = mkdtempSync(join(tmpdir(), "pi-bridge-nopi-"));
    try {
      assert.equal(findInstalledPi(empty), undefined);
      const command = defaultAgentCommand(empty);
      assert.equal(command.command, process.execPath);
      assert.deepEqual(command.args.slice(1), ["--mode", "rpc"]);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
