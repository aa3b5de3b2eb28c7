/**
 * The replay tells a page that connects later only what is still true: editor text the agent set is dropped once a
 * message used it up, and the latest notifications come along marked as earlier, with their ages, at most
 * RECENT_NOTIFICATIONS of them.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { RunningBridge } from "../src/index.js";
import { RECENT_NOTIFICATIONS } from "../src/ui-mirror.js";
import { type Rec, startFakeBridge, TestClient, uiRequest } from "./support/harness.js";

describe("what the replay gives a page that connects later", { timeout: 60_000 }, () => {
  let bridge: RunningBridge & { logs: string[] };
  let agent: TestClient;
  before(async () => {
    bridge = await startFakeBridge();
    agent = await TestClient.connect(bridge.url);
  });
  after(async () => {
    await agent.close();
    await bridge.close();
  });

  /**
   * Connects a new client and returns its replay: everything before the agent's echo of a command it sends at once
   * (the bridge replays to a new client before it reads anything from it).
   */
  async function replayOfNewClient(): Promise<Rec[]> {
    const client = await TestClient.connect(bridge.url);
    client.send({ type: "get_state", id: "after-replay" });
    await client.received((line) => line.id === "after-replay");
    const echo = client.records.findIndex((r) => r.type === "received");
    const records = client.records.slice(0, echo);
    await client.close();
    return records;
  }

  it("the editor text is replayed until a message uses it up; then a new page starts with an empty prompt", async () => {
    const from = agent.records.length;
    agent.directive(`emit ${JSON.stringify([uiRequest("e1", "set_editor_text", { text: "/prefill draft" })])}`);
    await agent.next((r) => r.id === "e1", from);
    const before = await replayOfNewClient();
    assert.ok(before.some((r) => r.method === "set_editor_text" && r.text === "/prefill draft"));

    agent.send({ type: "prompt", id: "sent", message: "/prefill draft" });
    await agent.received((line) => line.id === "sent");
    const afterSend = await replayOfNewClient();
    assert.equal(afterSend.filter((r) => r.method === "set_editor_text").length, 0);
  });

  it("a steer or follow_up uses it up too; a new set_editor_text is replayed again", async () => {
    for (const command of ["steer", "follow_up"]) {
      const from = agent.records.length;
      agent.directive(`emit ${JSON.stringify([uiRequest(`t-${command}`, "set_editor_text", { text: command })])}`);
      await agent.next((r) => r.id === `t-${command}`, from);
      assert.ok((await replayOfNewClient()).some((r) => r.method === "set_editor_text" && r.text === command));
      agent.send({ type: command, id: `m-${command}`, message: "x" });
      await agent.received((line) => line.id === `m-${command}`);
      assert.equal((await replayOfNewClient()).filter((r) => r.method === "set_editor_text").length, 0);
    }
  });

  it("the latest notifications come after the state, as one earlier_notifications record with their ages", async () => {
    const from = agent.records.length;
    const notes = Array.from({ length: RECENT_NOTIFICATIONS + 3 }, (_, i) =>
      uiRequest(`n${i}`, "notify", { message: `note ${i}`, notifyType: i === 0 ? "success" : "warning" }),
    );
    agent.directive(`emit ${JSON.stringify(notes)}`);
    await agent.next((r) => r.id === `n${notes.length - 1}`, from);
    const replay = await replayOfNewClient();
    const earlier = replay.filter((r) => r.type === "pi-elements/earlier_notifications");
    assert.equal(earlier.length, 1);
    const list = earlier[0]?.notifications as Array<{ id: string; message: string; notifyType: string; ageMs: number }>;
    assert.deepEqual(
      list.map((n) => n.message),
      notes.slice(-RECENT_NOTIFICATIONS).map((n) => n.message),
    );
    assert.ok(list.every((n) => n.ageMs >= 0 && n.ageMs < 30_000 && n.notifyType === "warning"));
    assert.deepEqual(
      list.map((n) => n.id),
      notes.slice(-RECENT_NOTIFICATIONS).map((n) => n.id),
    );
    // No notify is replayed as a new request.
    assert.equal(replay.filter((r) => r.method === "notify").length, 0);
    assert.equal(replay.at(-1)?.type, "pi-elements/earlier_notifications");
  });
});
