/**
 * Conformance against a real pi: test/fixtures/pi/rpc-demo.transcript.jsonl is pi 0.73.1's stdout, byte for byte,
 * running its own examples/extensions/rpc-demo.ts, and rpc-demo.sent.json is what the recorder wrote to pi and when
 * (scripts/record-transcript.ts re-records both). The replay drives a PiSession the way the recorder drove pi: the
 * same commands through `send`, the same answers through `respond`, with pi's output fed in between as bytes in
 * arbitrary chunks. What the session sends must match what pi was sent (up to the generated command ids).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { JsonlDecoder } from "../src/codec/jsonl.js";
import type { Diagnostic } from "../src/diagnostics.js";
import type { CommandType } from "../src/protocol/commands.js";
import { type DialogAnswer, ExtensionUiRequest } from "../src/protocol/extension-ui.js";
import type { Clock } from "../src/session/clock.js";
import { PiSession } from "../src/session/pi-session.js";
import { UiState } from "../src/session/ui-state.js";
import { BaseTransport } from "../src/transports/base.js";
import { ManualClock } from "./session-fakes.js";

const fixtures = new URL("../../../test/fixtures/pi/", import.meta.url);
const transcript = readFileSync(new URL("rpc-demo.transcript.jsonl", fixtures), "utf8");
const recorded = JSON.parse(readFileSync(new URL("rpc-demo.sent.json", fixtures), "utf8")) as {
  pi: string;
  sent: Array<{ afterRecords: number; line: string }>;
};
const lines = transcript.split("\n").filter((line) => line !== "");
type Message = Record<string, unknown>;
const messages = lines.map((line) => JSON.parse(line) as Message);

/** A transport fed by the test: bytes go through the strict decoder; what the session sends is kept. */
class ReplayTransport extends BaseTransport {
  readonly sent: string[] = [];
  readonly #decoder = new JsonlDecoder({
    onRecord: (record) => this.emitRecord(record),
    onDiagnostic: (diagnostic) => this.emitDiagnostic(diagnostic),
  });

  constructor() {
    super("open");
  }

  feed(bytes: Uint8Array, chunkSize: () => number): void {
    for (let at = 0; at < bytes.length; ) {
      const end = Math.min(bytes.length, at + chunkSize());
      this.#decoder.push(bytes.subarray(at, end));
      at = end;
    }
  }

  send(record: string): void {
    this.sent.push(record);
  }

  close(): void {
    this.setState("closed");
  }
}

/** Time that never moves: no deadline or command timeout ever comes due during a replay. */
const fixedClock: Clock = new ManualClock(1_000);
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Replay {
  session: PiSession;
  transport: ReplayTransport;
  results: Map<string, { value?: unknown; error?: unknown; settled: boolean }>;
  uiRequests: ExtensionUiRequest[];
  diagnostics: Diagnostic[];
  /** For each dialog answered: the head of the queue just before, and whether its prompt was still pending. */
  dialogsSeen: Array<{ method: string; title: string; fields: Message; commandPending: boolean }>;
  storeCalls: number;
}

/** Replays the transcript; `chunkSize` says how pi's output is cut before it reaches the decoder. */
async function replay(chunkSize: () => number): Promise<Replay> {
  const transport = new ReplayTransport();
  const session = new PiSession(transport, { clock: fixedClock });
  const r: Replay = {
    session,
    transport,
    results: new Map(),
    uiRequests: [],
    diagnostics: [],
    dialogsSeen: [],
    storeCalls: 0,
  };
  session.addEventListener("ui-request", (event) => r.uiRequests.push(event.value));
  session.addEventListener("diagnostic", (event) => r.diagnostics.push(event.value));
  session.ui.subscribe(() => r.storeCalls++);
  const commandIds = new Map<string, string>();
  let fed = 0;
  let lastCommand: string | undefined;

  const feedUntil = async (count: number) => {
    const text = lines
      .slice(fed, count)
      .map((line, i) => {
        const message = messages[fed + i]!;
        // Responses echo the id the recorder chose; the session chose its own for the same command.
        if (message.type !== "response" || typeof message.id !== "string") return `${line}\n`;
        const id = commandIds.get(message.id);
        assert.ok(id, `the session sent no command for response ${message.id}`);
        return `${JSON.stringify({ ...message, id })}\n`;
      })
      .join("");
    transport.feed(new TextEncoder().encode(text), chunkSize);
    fed = count;
    await settled();
  };

  for (const { afterRecords, line } of recorded.sent) {
    await feedUntil(afterRecords);
    let sent: Message;
    try {
      sent = JSON.parse(line) as Message;
    } catch {
      continue; // The recorder's non-JSON line: a session never sends one; pi's answer to it is replayed below.
    }
    const before = transport.sent.length;
    if (sent.type === "extension_ui_response") {
      const head = session.ui.getSnapshot().dialogs[0];
      assert.ok(head, "a dialog is pending");
      assert.equal(head.id, sent.id, "the dialog pi is waiting on is the head of the queue");
      const { type: _t, id: _i, method, title, ...fields } = head.request as Message;
      r.dialogsSeen.push({
        method: method as string,
        title: title as string,
        fields,
        commandPending: !r.results.get(lastCommand!)!.settled,
      });
      const { type: _type, id, ...answer } = sent;
      assert.equal(session.respond(id as string, answer as DialogAnswer), true);
      assert.equal(transport.sent.length, before + 1);
      assert.deepEqual(JSON.parse(transport.sent[before]!), sent, "the answer is exactly what pi was sent");
    } else {
      const { type, id, ...params } = sent as { type: CommandType; id: string };
      const result: { value?: unknown; error?: unknown; settled: boolean } = { settled: false };
      r.results.set(id, result);
      lastCommand = id;
      session.send(type, params as never).then(
        (value) => Object.assign(result, { value, settled: true }),
        (error) => Object.assign(result, { error, settled: true }),
      );
      assert.equal(transport.sent.length, before + 1);
      const wire = JSON.parse(transport.sent[before]!) as Message;
      assert.equal(typeof wire.id, "string");
      commandIds.set(id, wire.id as string);
      assert.deepEqual(wire, { ...sent, id: wire.id }, "the command is what pi was sent, under the session's own id");
    }
  }
  await feedUntil(lines.length);
  return r;
}

const expectedNotifications = [
  "You entered: héllo 世界 🎉 \u2028line\u2029para\r <b>x</b>",
  "Input cancelled",
  "Editor submitted (4 lines)",
  "Editor prefilled",
  "Clear cancelled",
];

function seededChunks(seed: number, max: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return 1 + (state % max);
  };
}

describe("conformance: replaying pi 0.73.1 running rpc-demo.ts", () => {
  test("the transcript is what the test expects: pi 0.73.1, raw U+2028 inside a record, one record per line", () => {
    assert.equal(recorded.pi, "0.73.1");
    assert.ok(transcript.includes("\u2028"), "pi writes U+2028 raw inside a JSON string");
    assert.ok(transcript.endsWith("\n"));
    assert.equal(messages.length, 21);
  });

  for (const [name, chunkSize] of [
    ["whole", () => Number.POSITIVE_INFINITY],
    ["in 1 to 7 byte chunks", seededChunks(7, 7)],
    ["one byte at a time", () => 1],
  ] as const) {
    test(`fed ${name}: the UI state, the dialogs, the answers and the command results match pi's`, async () => {
      const r = await replay(chunkSize);
      const ui = r.session.ui.getSnapshot();

      assert.equal(ui.title, "pi RPC Demo");
      assert.deepEqual(ui.widgets, {
        aboveEditor: [
          { key: "rpc-demo", lines: ["--- RPC Extension UI Demo ---", "Loaded and ready."], placement: "aboveEditor" },
        ],
        belowEditor: [],
      });
      assert.deepEqual(ui.statuses, [{ key: "rpc-demo", text: "Turns: 0", raw: "Turns: 0" }]);
      assert.deepEqual(ui.editorText, { text: "This text was set by the rpc-demo extension.", seq: 1 });
      assert.deepEqual(
        ui.notifications.map((n) => [n.type, n.message]),
        expectedNotifications.map((message) => ["info", message]),
      );
      assert.equal(ui.notificationCount, 5);
      assert.deepEqual(ui.dialogs, [], "every dialog was answered");

      assert.deepEqual(r.dialogsSeen, [
        { method: "input", title: "Enter a value", fields: { placeholder: "type something..." }, commandPending: true },
        { method: "input", title: "Enter a value", fields: { placeholder: "type something..." }, commandPending: true },
        {
          method: "editor",
          title: "Edit some text",
          fields: { prefill: "Line 1\nLine 2\nLine 3" },
          commandPending: true,
        },
        {
          method: "confirm",
          title: "Clear session?",
          fields: { message: "All messages will be lost." },
          commandPending: true,
        },
      ]);
      assert.deepEqual(
        r.uiRequests.map((request) => request.method),
        messages.filter((m) => m.type === "extension_ui_request").map((m) => m.method),
        "every extension-UI request was valid and surfaced, in order",
      );

      const results = Object.fromEntries([...r.results].map(([id, result]) => [id, result]));
      for (const [id, result] of Object.entries(results)) {
        assert.ok(result.settled && result.error === undefined, `${id} resolved`);
      }
      const commands = (results.c1!.value as { commands: Array<{ name: string; source: string }> }).commands;
      assert.deepEqual(
        commands.map((c) => [c.name, c.source]),
        [
          ["rpc-input", "extension"],
          ["rpc-editor", "extension"],
          ["rpc-prefill", "extension"],
        ],
      );
      assert.deepEqual(
        { ...(results.c2!.value as Message), model: undefined, sessionId: undefined },
        { ...(messages.find((m) => m.id === "c2")!.data as Message), model: undefined, sessionId: undefined },
      );
      for (const id of ["c3", "c4", "c5", "c6"]) assert.equal(results[id]!.value, undefined);
      assert.deepEqual(results.c7!.value, { cancelled: true });

      // pi's reply to the non-JSON line has no id: it can only be reported.
      assert.deepEqual(
        r.diagnostics.map((d) => d.code),
        ["unknown-response-id"],
      );
      assert.match(r.diagnostics[0]!.message, /parse/);
      assert.equal(r.session.diagnosticCount, 1);
      assert.ok(r.storeCalls >= 1 && r.storeCalls <= r.uiRequests.length + 4, "store changes are batched");
      r.session.close();
    });
  }

  test("a bare UiState (what the bridge keeps) reaches the same state from the same requests", () => {
    const state = new UiState({ schedule: () => {} });
    for (const message of messages) {
      if (message.type !== "extension_ui_request") continue;
      const request = ExtensionUiRequest.parse(message);
      assert.equal(state.apply(request, 1_000), true);
      // Each dialog was answered before pi sent anything else (the recorder answered at once).
      if (["input", "editor", "confirm", "select"].includes(request.method)) state.removeDialog(request.id);
    }
    const ui = state.getSnapshot();
    assert.equal(ui.title, "pi RPC Demo");
    assert.deepEqual(ui.statuses, [{ key: "rpc-demo", text: "Turns: 0", raw: "Turns: 0" }]);
    assert.deepEqual(
      ui.widgets.aboveEditor.map((w) => w.lines),
      [["--- RPC Extension UI Demo ---", "Loaded and ready."]],
    );
    assert.equal(ui.editorText?.text, "This text was set by the rpc-demo extension.");
    assert.deepEqual(
      ui.notifications.map((n) => n.message),
      expectedNotifications,
    );
    assert.deepEqual(ui.dialogs, []);
  });
});
