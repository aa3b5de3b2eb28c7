/**
 * What a real pi reports on its stderr after a session change reaches the clients: pi 1.6.0 writes
 * "Warning: Could not restore model …" when `switch_session` opens a session whose model it no longer has; the bridge
 * sends it as `pi-elements/agent_diagnostic`, and a core session shows it as a warning from pi. pi 0.73.1 writes
 * nothing there, and nothing is sent. pi is started without `--model`, as a user's is, so that it restores the
 * session's model; the session file is written as pi 1.x writes one (version 3), with a model pi lacks.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { WebSocket } from "ws";
import { type RunningBridge, startBridge } from "../../packages/bridge/src/index.js";
import { TestClient } from "../../packages/bridge/test/support/harness.js";
import { PiSession, type WebSocketConstructorLike, WebSocketTransport } from "../../packages/core/src/index.js";
import { type IsolatedPi, isolatedPi, PI_VERSIONS } from "../support/real-pi.js";
import { type ScriptedModel, startScriptedModel } from "../support/scripted-model.js";
import { waitFor } from "../support/wait-for.js";

/** A session pi 1.x could have written, whose model (`gone-provider/<model>`) pi no longer has. */
function oldSession(cwd: string, model: string): string {
  const at = "2026-12-01T10:00:00.000Z";
  return `${[
    { type: "session", version: 3, id: "0193a7c0-0000-7000-8000-000000000001", timestamp: at, cwd },
    {
      type: "model_change",
      id: "a1b2c3d4",
      parentId: null,
      timestamp: at,
      provider: "gone-provider",
      modelId: model,
    },
    {
      type: "message",
      id: "a1b2c3d5",
      parentId: "a1b2c3d4",
      timestamp: at,
      message: {
        role: "user",
        content: [{ type: "text", text: "hello from an old session" }],
        timestamp: 1764583200000,
      },
    },
  ]
    .map((entry) => JSON.stringify(entry))
    .join("\n")}\n`;
}

for (const version of PI_VERSIONS) {
  describe(`pi ${version.version}: what pi reports on stderr after a session change`, { timeout: 120_000 }, () => {
    let model: ScriptedModel;
    let pi: IsolatedPi;
    let bridge: RunningBridge;
    let copies = 0;
    /**
     * Another old session each time, with another model gone: pi records the model it went on with in the file it
     * switched to, and reports a diagnostic with the same words only once per process.
     */
    const freshSession = (model: string) => {
      const path = join(pi.home, `old-session-${++copies}.jsonl`);
      writeFileSync(path, oldSession(pi.home, model));
      return path;
    };

    before(async () => {
      model = await startScriptedModel();
      pi = isolatedPi(undefined, { pi: version, model, modelFlag: false });
      bridge = await startBridge({ port: 0, ...pi.options, restart: "never", log: () => {} });
    });
    after(async () => {
      await bridge.close();
      await model.close();
      pi.cleanup();
    });

    it("switch_session to a session whose model is gone: 1.6.0's warning reaches the client; 0.73.1 sends none", async () => {
      const client = await TestClient.connect(bridge.url);
      try {
        const from = client.records.length;
        client.send({ type: "switch_session", id: "s1", sessionPath: freshSession("gone-model") });
        await client.next((r) => r.type === "response" && r.command === "switch_session", from, "the switch's answer");
        // stdout and stderr are separate pipes: a get_state answered after the switch bounds when the warning can come.
        client.send({ type: "get_state", id: "s2" });
        const state = await client.next((r) => r.type === "response" && r.id === "s2", from, "get_state's answer");
        assert.equal((state.data as { model: { id: string } }).model.id, "scripted-model", "pi went on with its own");
        const diagnostics = () => client.records.slice(from).filter((r) => r.type === "pi-elements/agent_diagnostic");
        if (version.version === "0.73.1") {
          assert.deepEqual(diagnostics(), []);
          return;
        }
        const warning = await client.next((r) => r.type === "pi-elements/agent_diagnostic", from, "pi's warning");
        assert.deepEqual(warning, {
          type: "pi-elements/agent_diagnostic",
          level: "warning",
          message: "Could not restore model gone-provider/gone-model. Using scripted/scripted-model",
        });
      } finally {
        await client.close();
      }
    });

    // 0.73.1 writes no such warning: nothing for a session to show.
    if (version.version !== "0.73.1")
      it("a core session shows it as a warning from pi", async () => {
        const session = new PiSession(
          new WebSocketTransport(bridge.url, {
            WebSocket: WebSocket as unknown as WebSocketConstructorLike,
            framing: "jsonl",
            reconnect: false,
          }),
        );
        try {
          await waitFor(() => session.ui.getSnapshot().connection === "open", { message: "the session to connect" });
          await session.send("switch_session", { sessionPath: freshSession("another-gone-model") });
          const notification = await waitFor(
            () => session.ui.getSnapshot().notifications.find((entry) => entry.origin?.kind === "agent"),
            { message: "the warning as a notification", timeout: 30_000 },
          );
          assert.equal(notification.type, "warning");
          assert.equal(
            notification.message,
            "Could not restore model gone-provider/another-gone-model. Using scripted/scripted-model",
          );
        } finally {
          session.close();
        }
      });
  });
}
