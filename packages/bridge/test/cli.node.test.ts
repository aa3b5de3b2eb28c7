/**
 * The command line: parsing, and the real CLI process — it prints the URL, and SIGINT / SIGTERM stop the agent
 * without leaving an orphan.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { parseCommandLine } from "../src/command-line.js";
import { FAKE_AGENT, TestClient } from "./support/harness.js";

const CLI = fileURLToPath(new URL("../src/cli.ts", import.meta.url));

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
        "T",
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
        token: "T",
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
      writeFileSync(file, "  from-file \nsecond line\n", { mode: 0o600 });
      assert.deepEqual(parseCommandLine(["--token-file", file]), { token: "from-file" });
      assert.deepEqual(parseCommandLine([], { PI_BRIDGE_TOKEN: "from-env" }), { token: "from-env" });
      assert.deepEqual(parseCommandLine(["--token-file", file], { PI_BRIDGE_TOKEN: "from-env" }), {
        token: "from-file",
      });
      const warnings: string[] = [];
      assert.deepEqual(parseCommandLine(["--token", "T"], {}, warnings), { token: "T" });
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
      [["--bogus"], /bogus/],
      [["pi"], /agent command goes after --/],
      [["--grace", "1.5"], /--grace must be an integer/],
    ];
    for (const [argv, message] of cases) assert.throws(() => parseCommandLine(argv), message, argv.join(" "));
  });
});

/** Starts the CLI with the fake agent; resolves with the child and the URL it printed. */
async function startCli(extra: string[] = [], agentFlags: string[] = []) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", CLI, "--port", "0", ...extra, "--", process.execPath, FAKE_AGENT, ...agentFlags],
    { stdio: ["ignore", "pipe", "pipe"] },
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
