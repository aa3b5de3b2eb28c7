/**
 * The command line: parsing, and the real CLI process — it prints the URL, and SIGINT / SIGTERM stop the agent
 * without leaving an orphan.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { within } from "../../../test/support/wait-for.js";
import { parseCommandLine } from "../src/command-line.js";
import { FAKE_AGENT, killOrphan, startFakeBridge, TestClient } from "./support/harness.js";

const CLI = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
/** A token of the shortest length the command line takes (32 characters). */
const LONG_TOKEN = "0123456789abcdef0123456789abcdef";

describe("parseCommandLine", () => {
  it("has defaults left to startBridge", () => {
    assert.deepEqual(parseCommandLine([]), {});
  });

  it("reads every option, and the agent command after --", () => {
    assert.deepEqual(
      parseCommandLine([
        "--port",
        "0",
        "--host",
        "0.0.0.0",
        "--allow-remote",
        "--token",
        LONG_TOKEN,
        "--allow-origin",
        "https://a.example",
        "--allow-origin",
        "http://b.example:*",
        "--cwd",
        "/tmp",
        "--static",
        "./public",
        "--restart",
        "always",
        "--grace",
        "500",
        "--",
        "pi",
        "--mode",
        "rpc",
        "--port",
        "--",
      ]),
      {
        port: 0,
        host: "0.0.0.0",
        allowRemote: true,
        token: LONG_TOKEN,
        allowOrigins: ["https://a.example", "http://b.example:*"],
        cwd: "/tmp",
        staticDir: "./public",
        restart: "always",
        stopGraceMs: 500,
        agent: { command: "pi", args: ["--mode", "rpc", "--port", "--"] },
      },
    );
  });

  it("disables the token only with --no-token", () => {
    assert.deepEqual(parseCommandLine(["--no-token"]), { token: false });
  });

  it("reads the token from --token-file or PI_BRIDGE_TOKEN, and warns that --token is visible to local users", () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-bridge-token-"));
    try {
      const file = join(dir, "token");
      const fromFile = `from-file-${LONG_TOKEN}`;
      const fromEnv = `from-env-${LONG_TOKEN}`;
      writeFileSync(file, `  ${fromFile} \nsecond line\n`);
      chmodSync(file, 0o600);
      const quiet: string[] = [];
      assert.deepEqual(parseCommandLine(["--token-file", file], {}, quiet), { token: fromFile });
      assert.deepEqual(quiet, [], "a token file only its owner can read draws no warning");
      assert.deepEqual(parseCommandLine([], { PI_BRIDGE_TOKEN: fromEnv }), { token: fromEnv });
      assert.deepEqual(parseCommandLine(["--token-file", file], { PI_BRIDGE_TOKEN: fromEnv }), { token: fromFile });
      const warnings: string[] = [];
      assert.deepEqual(parseCommandLine(["--token", LONG_TOKEN], {}, warnings), { token: LONG_TOKEN });
      assert.match(warnings.join("\n"), /process list; prefer --token-file or PI_BRIDGE_TOKEN/);
      writeFileSync(file, "\n");
      assert.throws(() => parseCommandLine(["--token-file", file]), /holds no token/);
      assert.throws(() => parseCommandLine(["--token-file", join(dir, "missing")]), /cannot read/);
      assert.throws(() => parseCommandLine(["--token-file", file, "--token", "T"]), /exclude each other/);
      assert.throws(() => parseCommandLine([], { PI_BRIDGE_TOKEN: "" }), /must not be empty/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("warns, once, about a token file that other users can read or write", () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-bridge-token-"));
    try {
      const file = join(dir, "token");
      writeFileSync(file, `${LONG_TOKEN}\n`);
      for (const mode of [0o644, 0o640, 0o620, 0o602]) {
        chmodSync(file, mode);
        const warnings: string[] = [];
        assert.deepEqual(parseCommandLine(["--token-file", file], {}, warnings), { token: LONG_TOKEN });
        assert.equal(warnings.length, 1, `mode ${mode.toString(8)}: ${warnings.join(" | ")}`);
        assert.match(
          warnings[0] ?? "",
          new RegExp(`${file} .*other users.*mode 0${mode.toString(8)}.*chmod 600 `),
          mode.toString(8),
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a token shorter than 32 characters, from any source", () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-bridge-token-"));
    try {
      // The report's case: a 3-character token in a world-readable file.
      const file = join(dir, "token");
      writeFileSync(file, "abc\n");
      chmodSync(file, 0o644);
      const short = LONG_TOKEN.slice(1);
      for (const [argv, env] of [
        [["--token-file", file], {}],
        [["--token", short], {}],
        [[], { PI_BRIDGE_TOKEN: short }],
      ] as Array<[string[], NodeJS.ProcessEnv]>) {
        assert.throws(
          () => parseCommandLine(argv, env),
          /token .*is \d+ characters; it needs at least 32/,
          `${argv.join(" ")} ${JSON.stringify(env)}`,
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads --allow-host, repeatable", () => {
    assert.deepEqual(parseCommandLine(["--allow-host", "box.lan", "--allow-host", "10.0.0.5"]), {
      allowHosts: ["box.lan", "10.0.0.5"],
    });
  });

  it("refuses an --allow-host that is not a bare host name or address, saying so", () => {
    for (const bad of [
      "http://box",
      "https://box.lan/",
      "box:8080",
      "box/app",
      "*.box",
      "",
      "bo x",
      "-box",
      "[::1]:80",
      "1.2.3",
      "010.0.0.1",
    ]) {
      assert.throws(() => parseCommandLine([`--allow-host=${bad}`]), /--allow-host: Not a host name/, bad);
    }
    assert.deepEqual(
      parseCommandLine([
        "--allow-host",
        "Box.LAN",
        "--allow-host",
        "::1",
        "--allow-host",
        "[fe80::1]",
        "--allow-host",
        "my_box",
      ]),
      {
        allowHosts: ["box.lan", "[::1]", "[fe80::1]", "my_box"],
      },
    );
  });

  it("returns 'help' for --help and -h", () => {
    assert.equal(parseCommandLine(["--help"]), "help");
    assert.equal(parseCommandLine(["-h"]), "help");
  });

  it("refuses bad input with a message", () => {
    const cases: Array<[string[], RegExp]> = [
      [["--port", "x"], /--port must be an integer/],
      [["--port", "70000"], /--port must be an integer/],
      [["--port", "-1"], /--port/],
      [["--restart", "sometimes"], /--restart must be one of never, on-request, always/],
      [["--token", "a", "--no-token"], /exclude each other/],
      [["--token", ""], /must not be empty/],
      [["--token", "T"], /at least 32/],
      [["--bogus"], /bogus/],
      [["pi"], /agent command goes after --/],
      [["--grace", "1.5"], /--grace must be an integer/],
    ];
    for (const [argv, message] of cases) assert.throws(() => parseCommandLine(argv), message, argv.join(" "));
  });
});

/** Starts the CLI with the fake agent; resolves with the child and the URL it printed. */
async function startCli(extra: string[] = [], agentFlags: string[] = [], env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", CLI, "--port", "0", ...extra, "--", process.execPath, FAKE_AGENT, ...agentFlags],
    { stdio: ["ignore", "pipe", "pipe"], env },
  );
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => {
    stderr += text;
  });
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      stdout += text;
      const line = stdout.split("\n")[0];
      if (stdout.includes("\n") && line) resolve(line);
    });
    child.once("exit", (code) => reject(new Error(`CLI exited with ${code}: ${stderr}`)));
  });
  return { child, url, stderr: () => stderr };
}

const exited = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null)
      resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once("exit", (code, signal) => resolve({ code, signal }));
  });

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("pi-bridge CLI", () => {
  it("prints ws://HOST:PORT/?token=… and serves it", async () => {
    const { child, url } = await startCli();
    try {
      assert.match(url, /^ws:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
      const client = await TestClient.connect(url);
      await client.next((r) => r.type === "pi-elements/hello");
      await client.close();
    } finally {
      child.kill("SIGKILL");
    }
  });

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`stops the agent on ${signal} and exits 0, leaving no orphan`, async () => {
      const { child, url, stderr } = await startCli();
      const client = await TestClient.connect(url);
      client.send({ type: "prompt", message: "!emit []", id: "x" });
      await client.received((line) => line.id === "x");
      const pid = Number(/\(pid (\d+)\)/.exec(stderr())?.[1]);
      assert.ok(alive(pid), "the agent runs");
      child.kill(signal);
      assert.deepEqual(await exited(child), { code: 0, signal: null });
      assert.equal(alive(pid), false, "the agent is gone");
      assert.equal((await client.closed).code, 1001);
    });
  }

  it("sees the agent's death when its setsid child keeps the agent's stdio: agent_exit, restart, SIGTERM", async () => {
    const { child, url } = await startCli(["--grace", "1000"]);
    const orphans: number[] = [];
    try {
      const client = await TestClient.connect(url);
      client.directive("orphan");
      orphans.push((await client.next((r) => r.type === "orphan")).pid as number);
      client.directive("exit 5");
      const exit = await client.next((r) => r.type === "pi-elements/agent_exit", 0, "agent_exit");
      assert.equal(exit.code, 5);
      client.send({ type: "get_state", id: "after-exit" });
      const answer = await client.next((r) => r.type === "response" && r.id === "after-exit", 0, "an answer");
      assert.equal(answer.error, "The agent is not running.");
      const from = client.records.length;
      client.send({ type: "pi-elements/restart" });
      await client.next((r) => r.type === "pi-elements/agent_start", from, "agent_start after the restart");
      client.directive("orphan");
      orphans.push((await client.next((r) => r.type === "orphan", from)).pid as number);
      // Shutting down with an orphan on the new agent's stdio too.
      child.kill("SIGTERM");
      assert.deepEqual(await within(exited(child), { message: "the bridge's exit on SIGTERM" }), {
        code: 0,
        signal: null,
      });
      assert.equal((await client.closed).code, 1001);
    } finally {
      child.kill("SIGKILL");
      for (const pid of orphans) killOrphan(pid);
    }
  });

  it("keeps PI_BRIDGE_TOKEN from the agent (and so from all it runs), and passes the rest of the environment", async () => {
    const token = `env-${LONG_TOKEN}`;
    const env = { ...process.env, PI_BRIDGE_TOKEN: token, PI_BRIDGE_TEST_MARK: "passed" };
    const { child, url } = await startCli([], [], env);
    try {
      assert.equal(new URL(url).searchParams.get("token"), token);
      const client = await TestClient.connect(url);
      client.directive("env PI_BRIDGE_TOKEN");
      client.directive("env PI_BRIDGE_TEST_MARK");
      const seen = async (name: string) => (await client.next((r) => r.type === "env" && r.name === name)).value;
      assert.equal(await seen("PI_BRIDGE_TOKEN"), null);
      assert.equal(await seen("PI_BRIDGE_TEST_MARK"), "passed");
      await client.close();
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("keeps PI_BRIDGE_TOKEN from the agent when startBridge is given an env holding it, too", async () => {
    const bridge = await startFakeBridge({ env: { ...process.env, PI_BRIDGE_TOKEN: `env-${LONG_TOKEN}` } });
    try {
      const client = await TestClient.connect(bridge.url);
      client.directive("env PI_BRIDGE_TOKEN");
      assert.equal((await client.next((r) => r.type === "env")).value, null);
      await client.close();
    } finally {
      await bridge.close();
    }
  });

  it("says once on stderr that the token file is readable by other users", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-bridge-token-"));
    const file = join(dir, "token");
    writeFileSync(file, `${LONG_TOKEN}\n`);
    chmodSync(file, 0o644);
    const { child, url, stderr } = await startCli(["--token-file", file]);
    try {
      assert.equal(new URL(url).searchParams.get("token"), LONG_TOKEN);
      const warnings = stderr()
        .split("\n")
        .filter((line) => line.includes(file));
      assert.equal(warnings.length, 1, stderr());
      assert.match(warnings[0] ?? "", /^\[pi-bridge\] WARNING: .*other users.*chmod 600/);
    } finally {
      child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("kills an agent that ignores SIGTERM after --grace", async () => {
    const { child, url, stderr } = await startCli(["--grace", "200"], ["--ignore-sigterm"]);
    // Once the agent answers, its SIGTERM handler is installed.
    const client = await TestClient.connect(url);
    client.send({ type: "get_state", id: "ready" });
    await client.received((line) => line.id === "ready");
    const pid = Number(/\(pid (\d+)\)/.exec(stderr())?.[1]);
    child.kill("SIGTERM");
    assert.deepEqual(await exited(child), { code: 0, signal: null });
    assert.equal(alive(pid), false);
    assert.match(stderr(), /agent exited \(code null, signal SIGKILL\)/);
  });

  it("refuses a non-loopback host without --allow-remote", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", CLI, "--port", "0", "--host", "0.0.0.0"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (text: string) => {
      stderr += text;
    });
    assert.deepEqual(await exited(child), { code: 1, signal: null });
    assert.match(stderr, /Refusing to bind 0\.0\.0\.0/);
  });

  it("says what to do when its port is taken, exits 1, and starts no agent", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const child = spawn(
        process.execPath,
        ["--import", "tsx", CLI, "--port", String(port), "--", process.execPath, FAKE_AGENT],
        { stdio: ["ignore", "pipe", "pipe"] },
      );
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (text: string) => {
        stderr += text;
      });
      assert.deepEqual(await exited(child), { code: 1, signal: null });
      assert.match(stderr, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`));
      assert.match(stderr, /--port 0 for any free one/);
      assert.doesNotMatch(stderr, /agent started/);
    } finally {
      taken.close();
    }
  });

  it("refuses to start, in words and before it listens, when its pi needs a newer Node than any it can find", async () => {
    // A project whose pi needs a Node nobody has (as pi 1.x needs 22.19 on a Node 20 machine), with no Node on PATH.
    const project = mkdtempSync(join(tmpdir(), "pi-bridge-cli-node-"));
    try {
      const packageDir = join(project, "node_modules", "@earendil-works", "pi-coding-agent");
      mkdirSync(join(packageDir, "dist"), { recursive: true });
      writeFileSync(join(project, "package.json"), "{}");
      writeFileSync(
        join(packageDir, "package.json"),
        JSON.stringify({ version: "9.0.0", bin: { pi: "dist/cli.js" }, engines: { node: ">=99" } }),
      );
      writeFileSync(join(packageDir, "dist", "cli.js"), "");
      // tsx by its URL: the project folder cannot resolve it.
      const child = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), CLI, "--port", "0"], {
        cwd: project,
        env: { ...process.env, PATH: "" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (text: string) => {
        stdout += text;
      });
      child.stderr.setEncoding("utf8").on("data", (text: string) => {
        stderr += text;
      });
      assert.deepEqual(await exited(child), { code: 1, signal: null });
      assert.match(stderr, /^pi-bridge: @earendil-works\/pi-coding-agent 9\.0\.0 needs Node >=99/m);
      assert.match(stderr, /--node \/path\/to\/node/);
      assert.equal(stdout, "", "no address is printed");
      assert.doesNotMatch(stderr, /agent started/);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it("exits 2 with the usage on a bad option", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", CLI, "--restart", "maybe"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (text: string) => {
      stderr += text;
    });
    assert.deepEqual(await exited(child), { code: 2, signal: null });
    assert.match(stderr, /--restart must be one of/);
    assert.match(stderr, /Usage: pi-bridge/);
  });
});
