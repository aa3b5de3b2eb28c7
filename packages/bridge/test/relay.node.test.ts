/** The relay on its own: fake clients and a fake agent, no sockets or processes. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Clock, realClock } from "@pi-elements/core";
import { guardWith } from "../src/guard.js";
import { DIAGNOSTICS_PER_MINUTE, Relay, type RelayClient } from "../src/relay.js";
import { ManualClock } from "./support/harness.js";

class FakeClient implements RelayClient {
  readonly sent: string[] = [];
  closedWith: { code: number; reason: string } | undefined;
  send(data: string): void {
    this.sent.push(data);
  }
  close(code: number, reason: string): void {
    this.closedWith = { code, reason };
  }
  records(): Array<Record<string, unknown>> {
    return this.sent.flatMap((frame) =>
      frame
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
    );
  }
}

function setUp({ running = true, restartable = true, clock = realClock as Clock } = {}) {
  const broadcasts: Array<{ text: string; except: unknown }> = [];
  const written: string[] = [];
  const logs: string[] = [];
  const restarts: number[] = [];
  const agent = { running, write: (line: string) => written.push(line) };
  const log = (line: string) => logs.push(line);
  const relay = new Relay({
    clock,
    maxJsonDepth: 64,
    broadcast: (message, except) =>
      broadcasts.push({ text: typeof message === "string" ? message : Buffer.concat(message).toString(), except }),
    send: (client, message) => (client as FakeClient).send(message),
    agent: () => agent,
    ...(restartable ? { restart: () => restarts.push(1) } : {}),
    restartPolicy: restartable ? "on-request" : "never",
    log,
    guarded: guardWith(log),
  });
  const frame = (...records: unknown[]) => [Buffer.from(records.map((r) => `${JSON.stringify(r)}\n`).join(""))];
  const fromClient = (client: FakeClient, ...records: unknown[]) =>
    relay.clientFrame(client, Buffer.from(records.map((r) => JSON.stringify(r)).join("\n")), false);
  return { relay, agent, broadcasts, written, logs, restarts, frame, fromClient };
}

const confirm = { type: "extension_ui_request", id: "d1", method: "confirm", title: "Sure?", message: "" };

describe("Relay", () => {
  it("relays agent output without records in the bridge's own namespace", () => {
    const { relay, agent, broadcasts, logs, frame } = setUp();
    relay.agentFrame(agent, frame({ type: "agent_start" }, { type: "pi-elements/agent_exit", code: 0 }));
    assert.deepEqual(broadcasts, [{ text: '{"type":"agent_start"}\n', except: undefined }]);
    assert.ok(logs.some((line) => line.includes("dropped 1 agent record(s)")));
    relay.dispose();
  });

  it("sends a client's command to the agent; with no agent running, the sender alone gets pi's failure", () => {
    const running = setUp();
    const client = new FakeClient();
    running.fromClient(client, { type: "get_state", id: "g1" });
    assert.deepEqual(running.written, ['{"type":"get_state","id":"g1"}']);
    running.relay.dispose();

    const stopped = setUp({ running: false });
    stopped.fromClient(client, { type: "get_state", id: "g2" });
    assert.deepEqual(stopped.written, []);
    assert.deepEqual(client.records(), [
      { type: "response", command: "get_state", success: false, error: "The agent is not running.", id: "g2" },
    ]);
    assert.deepEqual(stopped.broadcasts, []);
    stopped.relay.dispose();
  });

  it("forwards the first answer to a dialog and tells everyone it closed; a second answer gets a notice", () => {
    const { relay, agent, broadcasts, written, frame, fromClient } = setUp();
    relay.agentFrame(agent, frame(confirm));
    const first = new FakeClient();
    const second = new FakeClient();
    fromClient(first, { type: "extension_ui_response", id: "d1", confirmed: true });
    assert.deepEqual(written, ['{"type":"extension_ui_response","id":"d1","confirmed":true}']);
    assert.match(broadcasts.at(-1)?.text ?? "", /"pi-elements\/dialog_closed","id":"d1","reason":"answered"/);
    fromClient(second, { type: "extension_ui_response", id: "d1", confirmed: false });
    assert.equal(written.length, 1, "the late answer does not reach the agent");
    assert.equal(second.records()[0]?.method, "notify");
    assert.deepEqual(first.sent, []);
    relay.dispose();
  });

  it("refuses a whole frame: binary, not UTF-8, malformed, or an answer of the wrong shape", () => {
    const { relay, agent, written, frame, fromClient } = setUp();
    relay.agentFrame(agent, frame(confirm));
    const binary = new FakeClient();
    relay.clientFrame(binary, Buffer.from("{}"), true);
    assert.equal(binary.closedWith?.code, 1003);
    const notUtf8 = new FakeClient();
    relay.clientFrame(notUtf8, Buffer.from([0x7b, 0xff, 0x7d]), false);
    assert.equal(notUtf8.closedWith?.code, 1007);
    const wrongShape = new FakeClient();
    fromClient(wrongShape, { type: "get_state" }, { type: "extension_ui_response", id: "d1", value: "text" });
    assert.equal(wrongShape.closedWith?.code, 1008);
    assert.deepEqual(written, [], "nothing of a refused frame reaches the agent");
    relay.dispose();
  });

  it("replays hello, the pending dialogs and the last exit; a large state is split into frames", () => {
    const { relay, agent, frame } = setUp();
    relay.agentFrame(agent, frame(confirm));
    const [only, ...rest] = relay.replay({ code: 1, signal: null, stderrTail: ["boom"] });
    assert.deepEqual(rest, []);
    const types = (only ?? "")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line).type);
    assert.deepEqual(types, ["pi-elements/hello", "extension_ui_request", "pi-elements/agent_exit"]);

    const widget = (key: string) => ({
      type: "extension_ui_request",
      id: key,
      method: "setWidget",
      widgetKey: key,
      widgetLines: ["x".repeat(300_000)],
    });
    relay.agentFrame(agent, frame(widget("a"), widget("b"), widget("c"), widget("d"), widget("e")));
    const frames = relay.replay(undefined);
    assert.ok(frames.length > 1, `${frames.length} frame(s)`);
    for (const text of frames) assert.ok(text.endsWith("\n") && text.length <= 1024 * 1024 + 400_000);
    relay.dispose();
  });

  it("the agent's exit closes its dialogs before the exit report; a new agent is announced", () => {
    const { relay, agent, broadcasts, frame } = setUp();
    relay.agentFrame(agent, frame(confirm));
    relay.agentExited({ code: 0, signal: null, stderrTail: [] });
    assert.match(broadcasts.at(-2)?.text ?? "", /dialog_closed","id":"d1","reason":"agent_exit"/);
    assert.match(broadcasts.at(-1)?.text ?? "", /"pi-elements\/agent_exit"/);
    relay.agentStarted(42);
    assert.match(broadcasts.at(-1)?.text ?? "", /^{"type":"pi-elements\/agent_start","pid":42}\n.*hello/);
    assert.deepEqual(relay.replay(undefined).join("").trim().split("\n").length, 1, "the old state is gone");
    relay.dispose();
  });

  it("passes a client's restart request on only when restarts are allowed", () => {
    const allowed = setUp();
    allowed.fromClient(new FakeClient(), { type: "pi-elements/restart" });
    assert.equal(allowed.restarts.length, 1);
    allowed.relay.dispose();
    const never = setUp({ restartable: false });
    never.fromClient(new FakeClient(), { type: "pi-elements/restart" });
    assert.equal(never.restarts.length, 0);
    never.relay.dispose();
  });
});

describe("the agent's stderr", () => {
  it("sends pi's diagnostic lines (Warning:, Error:, coloured or not) to every client; other lines stay in the log", () => {
    const { relay, broadcasts } = setUp();
    for (const line of [
      "Warning: Could not restore model gone/x. Using scripted/scripted-model",
      "\u001b[31mError: extension failed to load\u001b[39m",
      "  /path/to/docs/providers.md",
      "warning: lower case is not pi's form",
      "Warning:",
      "Debugger listening on ws://127.0.0.1:9229",
      "Error: <img src=x onerror=alert(1)>",
    ])
      relay.agentStderr(line);
    assert.deepEqual(
      broadcasts.map(({ text }) => JSON.parse(text)),
      [
        {
          type: "pi-elements/agent_diagnostic",
          level: "warning",
          message: "Could not restore model gone/x. Using scripted/scripted-model",
        },
        { type: "pi-elements/agent_diagnostic", level: "error", message: "extension failed to load" },
        { type: "pi-elements/agent_diagnostic", level: "error", message: "<img src=x onerror=alert(1)>" },
      ],
    );
  });

  it("at most DIAGNOSTICS_PER_MINUTE a minute: an agent that writes more has the rest only in the log", () => {
    const clock = new ManualClock();
    const { relay, broadcasts } = setUp({ clock });
    for (let i = 0; i < DIAGNOSTICS_PER_MINUTE + 5; i++) relay.agentStderr(`Warning: number ${i}`);
    assert.equal(broadcasts.length, DIAGNOSTICS_PER_MINUTE);
    clock.advance(59_999);
    relay.agentStderr("Warning: still within the minute");
    assert.equal(broadcasts.length, DIAGNOSTICS_PER_MINUTE);
    clock.advance(1);
    relay.agentStderr("Warning: a minute later");
    assert.equal(JSON.parse(broadcasts.at(-1)!.text).message, "a minute later");
  });
});
