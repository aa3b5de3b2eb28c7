/**
 * The session controls' commands against real pi (0.73.1 and 1.6.0) behind the real bridge: `set_model` changes the
 * model `get_state` reports, `set_thinking_level` reaches pi (and pi clamps it for a model that does not reason),
 * the thinking levels each version can tell (1.6.0 `get_available_thinking_levels`; 0.73.1 lacks the command),
 * `set_session_name` and `get_fork_messages` after a scripted turn.
 *
 * pi's models.json lists three scripted models over two providers. With RECORD_CONTROLS=1 the answers are written to
 * test/fixtures/session-controls/<version>.json, the shapes the elements' browser tests answer with.
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { type RunningBridge, startBridge } from "../../packages/bridge/src/index.js";
import { type Rec, TestClient } from "../../packages/bridge/test/support/harness.js";
import { type IsolatedPi, isolatedPi, PI_VERSIONS } from "../support/real-pi.js";
import { piModelChoicesJson, type ScriptedModel, startScriptedModel } from "../support/scripted-model.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/session-controls/", import.meta.url));

for (const version of PI_VERSIONS) {
  describe(`session controls on pi ${version.version} behind the bridge`, { timeout: 120_000 }, () => {
    let model: ScriptedModel;
    let pi: IsolatedPi;
    let bridge: RunningBridge;
    let client: TestClient;
    let next = 0;
    const recorded: Record<string, unknown> = {};

    /** Sends a command and waits for its answer (0.73.1 answers an unknown command without the id). */
    async function command(type: string, params: Record<string, unknown> = {}): Promise<Rec> {
      const id = `c${++next}`;
      const from = client.records.length;
      client.send({ type, id, ...params });
      const answer = await client.next(
        (r) => r.type === "response" && r.command === type && (r.id === id || r.id === undefined),
        from,
      );
      recorded[`${type}#${next}`] = { sent: { type, ...params }, answer };
      return answer;
    }

    before(async () => {
      model = await startScriptedModel();
      pi = isolatedPi(undefined, { pi: version, model });
      // Three models over two providers, the reasoning scripted model first (the one `--model` picks).
      writeFileSync(join(pi.home, "agent", "models.json"), piModelChoicesJson(model));
      bridge = await startBridge({ port: 0, ...pi.options, restart: "never", log: () => {} });
      client = await TestClient.connect(bridge.url);
    });
    after(async () => {
      if (process.env["RECORD_CONTROLS"] === "1") {
        mkdirSync(FIXTURES, { recursive: true });
        // The scripted server's port changes with every run.
        const text = JSON.stringify(recorded, null, 2).replace(/http:\/\/127\.0\.0\.1:\d+/g, "http://127.0.0.1:0");
        writeFileSync(join(FIXTURES, `${version.version}.json`), `${text}\n`);
      }
      await client.close();
      await bridge.close();
      await model.close();
      pi.cleanup();
    });

    it("lists every model pi has, with provider, reasoning and context window", async () => {
      const answer = await command("get_available_models");
      assert.equal(answer.success, true);
      const models = (answer.data as { models: Array<Record<string, unknown>> }).models;
      assert.deepEqual(
        models.map((m) => [m.provider, m.id, m.reasoning, m.contextWindow]),
        [
          ["scripted", "scripted-model", true, 128000],
          ["scripted", "scripted-plain", false, 32000],
          ["scripted-b", "b-model", true, 1000000],
        ],
      );
    });

    it("set_model changes the model get_state reports; a model pi lacks is refused in words", async () => {
      const before = await command("get_state");
      assert.equal((before.data as { model: { id: string } }).model.id, "scripted-model");
      const set = await command("set_model", { provider: "scripted-b", modelId: "b-model" });
      assert.equal(set.success, true);
      assert.equal((set.data as { id: string }).id, "b-model");
      const after = await command("get_state");
      assert.deepEqual(
        [
          (after.data as { model: { provider: string; id: string } }).model.provider,
          (after.data as { model: { id: string } }).model.id,
        ],
        ["scripted-b", "b-model"],
      );
      const refused = await command("set_model", { provider: "nobody", modelId: "nothing" });
      assert.equal(refused.success, false);
      assert.equal(refused.error, "Model not found: nobody/nothing");
    });

    it("set_thinking_level reaches pi; pi clamps it to off for a model that does not reason", async () => {
      await command("set_model", { provider: "scripted", modelId: "scripted-model" });
      assert.equal((await command("set_thinking_level", { level: "high" })).success, true);
      assert.equal(((await command("get_state")).data as { thinkingLevel: string }).thinkingLevel, "high");
      const levels = await command("get_available_thinking_levels");
      if (version.version === "0.73.1") {
        assert.equal(levels.success, false);
        assert.equal(levels.error, "Unknown command: get_available_thinking_levels");
      } else {
        assert.equal(levels.success, true);
        assert.deepEqual((levels.data as { levels: string[] }).levels, ["off", "minimal", "low", "medium", "high"]);
      }
      await command("set_model", { provider: "scripted", modelId: "scripted-plain" });
      const plain = await command("get_state");
      assert.equal((plain.data as { thinkingLevel: string }).thinkingLevel, "off");
      if (version.version !== "0.73.1") {
        const plainLevels = await command("get_available_thinking_levels");
        assert.deepEqual((plainLevels.data as { levels: string[] }).levels, ["off"]);
      }
      await command("set_model", { provider: "scripted", modelId: "scripted-model" });
    });

    it("names the session, refuses an empty name, and lists the user messages to fork from after a turn", async () => {
      assert.equal((await command("set_session_name", { name: "controls" })).success, true);
      assert.equal(((await command("get_state")).data as { sessionName?: string }).sessionName, "controls");
      const empty = await command("set_session_name", { name: "   " });
      assert.equal(empty.success, false);
      assert.equal(empty.error, "Session name cannot be empty");
      model.setScript([{ text: "Hello from the script." }]);
      const from = client.records.length;
      await command("prompt", { message: "First question" });
      await client.next((r) => r.type === "agent_end", from);
      const fork = await command("get_fork_messages");
      assert.equal(fork.success, true);
      const messages = (fork.data as { messages: Array<{ entryId: string; text: string }> }).messages;
      assert.deepEqual(
        messages.map((m) => m.text),
        ["First question"],
      );
      assert.equal(typeof messages[0]?.entryId, "string");
      const stats = await command("get_session_stats");
      assert.equal(stats.success, true);
    });
  });
}
