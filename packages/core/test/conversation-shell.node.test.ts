/**
 * The user's own shell command (pi's `bash` command) in the conversation snapshot's `shell`: on the real `bash`
 * recordings of both versions, replayed through a PiSession and `conversationOf` as pi sent them (1.6.0 streams the
 * output as appended `bash_execution_update` deltas; 0.73.1 streams nothing), and the edges by hand.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { conversationOf } from "../src/conversation/conversation-of.js";
import { ConversationState } from "../src/conversation/conversation-state.js";
import type { ConversationSnapshot, ShellExecution } from "../src/conversation/snapshot.js";
import { PiSession } from "../src/session/pi-session.js";
import { CONVERSATION_VERSIONS, loadConversation } from "./conversation-fixtures.js";
import { feed as feedRun } from "./run-feed.js";
import { FakeTransport } from "./session-fakes.js";

const COMMAND = "echo first; sleep 0.2; echo second";

/**
 * Replays a recording: each line the recorder wrote to pi is sent through the session at its point (the session
 * makes its own ids; the recording's records are given them back), and each record pi wrote is received. Returns
 * the store's snapshot after each record, with the record.
 */
function replay(version: (typeof CONVERSATION_VERSIONS)[number]) {
  const { records, sent } = loadConversation(version, "bash");
  const transport = new FakeTransport();
  const session = new PiSession(transport);
  const store = conversationOf(session);
  const ids = new Map<string, string>();
  const steps: { record: Record<string, unknown>; snapshot: ConversationSnapshot }[] = [];
  const sendAt = (index: number) => {
    for (const { afterRecords, line } of sent) {
      if (afterRecords !== index) continue;
      const { id, type, ...params } = JSON.parse(line) as { id: string; type: string };
      (session.send as (type: string, params: object) => Promise<unknown>)(type, params).catch(() => {});
      ids.set(id, (transport.sentMessages().at(-1) as { id: string }).id);
    }
  };
  for (const [index, record] of records.entries()) {
    sendAt(index);
    const id = typeof record.id === "string" ? ids.get(record.id) : undefined;
    transport.receive(id === undefined ? record : { ...record, id });
    steps.push({ record, snapshot: store.getSnapshot() });
  }
  session.close();
  return { steps, bashId: ids.get("bash-1") };
}

describe("the user's shell command (snapshot.shell)", () => {
  test("1.6.0: the output grows delta by delta, the answer finishes it, the history's bashExecution replaces it", () => {
    const { steps, bashId } = replay("1.6.0");
    assert.ok(bashId);
    const running = (output: string): ShellExecution => ({
      id: bashId,
      command: COMMAND,
      output,
      status: "running",
      exitCode: undefined,
      cancelled: undefined,
      truncated: undefined,
    });
    const updates = steps.filter((step) => step.record.type === "bash_execution_update");
    assert.deepEqual(
      updates.map((step) => step.snapshot.shell),
      [running("first\n"), running("first\nsecond\n")],
    );
    const answer = steps.find((step) => step.record.type === "response" && step.record.command === "bash");
    assert.deepEqual(answer?.snapshot.shell, {
      ...running("first\nsecond\n"),
      status: "done",
      exitCode: 0,
      cancelled: false,
      truncated: false,
    });
    // It stays done through the turn that follows, until a history arrives.
    const history = steps.findIndex(
      (step) => step.record.type === "response" && step.record.command === "get_messages",
    );
    const afterAnswer = steps.slice(steps.indexOf(answer!), history);
    assert.ok(afterAnswer.every((step) => step.snapshot.shell?.status === "done"));
    const last = steps.at(-1)!.snapshot;
    assert.equal(last.shell, undefined);
    const bash = last.entries.find((entry) => entry.kind === "message" && entry.message.role === "bashExecution");
    assert.deepEqual(
      bash?.kind === "message" && bash.message.role === "bashExecution"
        ? [bash.message.command, bash.message.output, bash.message.exitCode]
        : undefined,
      [COMMAND, "first\nsecond\n", 0],
    );
  });

  test("0.73.1 streams nothing: the shell is never shown, and its bashExecution message still arrives", () => {
    const { steps } = replay("0.73.1");
    assert.ok(steps.some((step) => step.record.type === "response" && step.record.command === "bash"));
    assert.ok(steps.every((step) => step.snapshot.shell === undefined));
    const last = steps.at(-1)!.snapshot;
    assert.ok(last.entries.some((entry) => entry.kind === "message" && entry.message.role === "bashExecution"));
  });

  test("a failed bash command leaves at once; another id starts a new shell; a non-string delta is ignored", () => {
    const state = new ConversationState();
    state.shellSent("b1", "make");
    feedRun(state, { type: "bash_execution_update", id: "b1", delta: "cc -c a.c\n" });
    feedRun(state, { type: "bash_execution_update", id: "b1", delta: 42 });
    assert.equal(state.getSnapshot().shell?.output, "cc -c a.c\n");
    state.shellAnswered("other", false);
    assert.equal(state.getSnapshot().shell?.status, "running", "another command's answer leaves it");
    state.shellAnswered("b1", false);
    assert.equal(state.getSnapshot().shell, undefined);

    // Another client's command (never sent here), and pi's update without an id.
    feedRun(state, { type: "bash_execution_update", id: "b2", delta: "x" });
    assert.deepEqual([state.getSnapshot().shell?.id, state.getSnapshot().shell?.command], ["b2", undefined]);
    feedRun(state, { type: "bash_execution_update", delta: "y" });
    assert.deepEqual([state.getSnapshot().shell?.id, state.getSnapshot().shell?.output], [undefined, "y"]);
  });

  test("a gap in the connection and a session change drop it; a history leaves a running one", () => {
    const state = new ConversationState();
    state.shellSent("b1", "sleep 9");
    feedRun(state, { type: "bash_execution_update", id: "b1", delta: "zz" });
    state.setHistory([], state.mark());
    assert.equal(state.getSnapshot().shell?.status, "running", "a history holds no running command");
    state.dropStreaming();
    assert.equal(state.getSnapshot().shell, undefined);
    feedRun(state, { type: "bash_execution_update", id: "b1", delta: "zz" });
    state.reset();
    assert.equal(state.getSnapshot().shell, undefined);
    // After the reset the command line is forgotten too.
    feedRun(state, { type: "bash_execution_update", id: "b1", delta: "zz" });
    assert.equal(state.getSnapshot().shell?.command, undefined);
  });

  test("the snapshot keeps its shell object until the shell changes", () => {
    const state = new ConversationState();
    feedRun(state, { type: "bash_execution_update", id: "b1", delta: "a" });
    const first = state.getSnapshot().shell;
    feedRun(state, { type: "queue_update", steering: ["s"], followUp: [] });
    assert.equal(state.getSnapshot().shell, first);
  });

  for (const version of CONVERSATION_VERSIONS) {
    test(`${version}: pi's own failure answer to bash is told to the store (commandFailed)`, async () => {
      const transport = new FakeTransport();
      const session = new PiSession(transport);
      const store = conversationOf(session);
      const sent = session.send("bash", { command: "false" }, { report: false });
      const { id } = transport.sentMessages().at(-1) as { id: string };
      transport.receive({ type: "bash_execution_update", id, delta: "partial" });
      assert.equal(store.getSnapshot().shell?.output, "partial");
      transport.receive({ type: "response", id, command: "bash", success: false, error: "busy" });
      await assert.rejects(sent);
      assert.equal(store.getSnapshot().shell, undefined);
      session.close();
    });
  }
});
