/**
 * `conversationOf(session)` on a PiSession: made on the first call, fed from the event path, and refreshed under the
 * refresh rule (conversation/sync.ts): what the session sends to pi, and what the store shows from the answers.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { conversationOf } from "../src/conversation/conversation-of.js";
import { PiSession } from "../src/session/pi-session.js";
import { assistant, streamAssistant, user, userTurn } from "./conversation-wire.js";
import { FakeTransport, ManualClock, ManualSchedule } from "./session-fakes.js";

const CONNECT = [
  "get_state",
  "get_messages",
  "get_available_models",
  "get_available_thinking_levels",
  "get_session_stats",
];

const model = (id: string) => ({
  id,
  name: id.toUpperCase(),
  provider: "scripted",
  reasoning: true,
  contextWindow: 1000,
});
const stats = (total: number) => ({
  sessionId: "s1",
  userMessages: 1,
  assistantMessages: 1,
  toolCalls: 0,
  toolResults: 0,
  totalMessages: 2,
  tokens: { input: total - 5, output: 5, cacheRead: 0, cacheWrite: 0, total },
  cost: 0.01,
  contextUsage: { tokens: total, contextWindow: 1000, percent: total / 10 },
});
const state = (fields: Record<string, unknown> = {}) => ({
  model: model("a"),
  thinkingLevel: "medium",
  isStreaming: false,
  isCompacting: false,
  steeringMode: "all",
  followUpMode: "one-at-a-time",
  sessionId: "s1",
  sessionName: "work",
  autoCompactionEnabled: true,
  messageCount: 2,
  pendingMessageCount: 0,
  ...fields,
});

/** Each setup's manual schedule, which its session's conversation store is made with. */
const schedules = new WeakMap<PiSession, ManualSchedule>();
const conversation = (session: PiSession) => conversationOf(session, { schedule: schedules.get(session)?.schedule });

function setup() {
  const transport = new FakeTransport();
  const schedule = new ManualSchedule();
  const session = new PiSession(transport, { schedule: schedule.schedule });
  schedules.set(session, schedule);
  /** The commands sent since the last call, as [type, id]. */
  let seen = 0;
  const sent = () => {
    const all = transport.sentMessages().slice(seen);
    seen += all.length;
    return all.map((message) => message.type as string);
  };
  /** Answers the last command of this type sent. */
  const answer = (type: string, data?: unknown, success = true) => {
    const command = transport
      .sentMessages()
      .filter((message) => message.type === type)
      .at(-1);
    assert.ok(command, `a ${type} was sent`);
    transport.receive(
      success
        ? { type: "response", id: command.id, command: type, success: true, ...(data === undefined ? {} : { data }) }
        : { type: "response", id: command.id, command: type, success: false, error: "Unknown command" },
    );
  };
  const connect = () => {
    answer("get_state", state());
    answer("get_messages", {
      messages: [user("hi", 1), assistant([{ type: "text", text: "hello" }], { timestamp: 2 })],
    });
    answer("get_available_models", { models: [model("a"), model("b")] });
    answer("get_available_thinking_levels", { levels: ["off", "low", "medium", "high"] });
    answer("get_session_stats", stats(15));
  };
  return { transport, session, schedule, sent, answer, connect };
}

describe("conversationOf(session)", () => {
  test("a session whose conversation nobody asks for sends nothing and keeps no conversation", () => {
    const { transport, session } = setup();
    transport.receive({ type: "agent_start" }, ...userTurn("hi"));
    assert.deepEqual(transport.sent, []);
    assert.equal(session.ui.getSnapshot().run.working, true);
  });

  test("the first call while open is a connect: state, history, models, levels and stats fill the info", () => {
    const { session, sent, connect } = setup();
    const store = conversation(session);
    assert.equal(conversation(session), store, "one store per session");
    assert.deepEqual(sent(), CONNECT);
    connect();
    const { info, entries, historyLoaded } = store.getSnapshot();
    assert.equal(historyLoaded, true);
    assert.equal(entries.length, 2);
    assert.deepEqual(info.model, model("a"));
    assert.deepEqual(
      info.availableModels?.map((m) => m.id),
      ["a", "b"],
    );
    assert.equal(info.thinkingLevel, "medium");
    assert.deepEqual(info.availableThinkingLevels, ["off", "low", "medium", "high"]);
    assert.equal(info.protocol, "1.x", "learned from its answer to get_available_thinking_levels");
    assert.equal(info.sessionId, "s1");
    assert.equal(info.sessionName, "work");
    assert.equal(info.isStreaming, false);
    assert.equal(info.stats?.tokens.total, 15);
    assert.equal(info.stats?.contextUsage?.percent, 1.5);
  });

  test("pi 0.73.1 lacks get_available_thinking_levels: its failure is not shown, the protocol is learned once, never asked again", async () => {
    const { session, answer, transport, sent } = setup();
    void conversation(session);
    sent();
    // As pi 0.73.1 answers a command it does not know: no id (the session settles the one in flight of that name).
    transport.receive({
      type: "response",
      command: "get_available_thinking_levels",
      success: false,
      error: "Unknown command: get_available_thinking_levels",
    });
    await Promise.resolve();
    assert.deepEqual(session.ui.getSnapshot().notifications, []);
    const { info } = conversation(session).getSnapshot();
    assert.equal(info.availableThinkingLevels, undefined);
    assert.equal(info.protocol, "0.73");
    // A model change asks pi's state again, not the levels it cannot give.
    const switched = session.send("set_model", { provider: "p", modelId: "b" });
    answer("set_model", model("b"));
    await switched;
    await Promise.resolve();
    assert.deepEqual(sent(), ["set_model", "get_state"]);
    // A new pi process behind the bridge is asked again (it may be another version).
    transport.receive({ type: "pi-elements/agent_start", pid: 2 }, { type: "pi-elements/hello", protocol: 1 });
    assert.equal(conversation(session).getSnapshot().info.protocol, undefined);
    assert.ok(sent().includes("get_available_thinking_levels"));
  });

  test("the probe has a bound on the session's clock: a pi that never answers it leaves nothing pending", async () => {
    const transport = new FakeTransport();
    const clock = new ManualClock();
    const session = new PiSession(transport, { clock });
    const store = conversationOf(session);
    const probe = transport.sentMessages().find((m) => m.type === "get_available_thinking_levels");
    assert.ok(probe, "the probe was sent");
    assert.equal(clock.pending, 1, "one timer: the probe's bound");
    clock.advance(30_000);
    await Promise.resolve();
    await Promise.resolve();
    assert.equal(clock.pending, 0);
    // A late answer is no longer waited for; the store learned nothing from the silence.
    assert.equal(store.getSnapshot().info.protocol, undefined);
  });

  test("events stream into it with no per-token event dispatched", () => {
    const { transport, session, schedule, connect } = setup();
    const store = conversation(session);
    connect();
    let heard = 0;
    store.subscribe(() => {
      heard += 1;
    });
    schedule.runAll();
    let dispatched = 0;
    const dispatch = session.dispatchEvent.bind(session);
    session.dispatchEvent = (event: Event) => {
      dispatched += 1;
      return dispatch(event);
    };
    const events = streamAssistant(
      "1.6.0",
      assistant([{ type: "text", text: "A longer answer, token by token." }], { timestamp: 3 }),
      2,
    );
    transport.receive({ type: "agent_start" }, ...events.slice(0, -1));
    schedule.runAll();
    assert.equal(heard, 1, "one notification for the burst");
    const streaming = store.getSnapshot().streaming;
    assert.equal(streaming?.blocks[0]?.type === "text" && streaming.blocks[0].text, "A longer answer, token by token.");
    assert.equal(store.getSnapshot().run.status, "streaming");
    assert.equal(dispatched, 0, "no Event object per token when nobody listens");
  });

  describe("the refresh rule", () => {
    test("set_model: the model from the answer, then get_state and the levels", async () => {
      const { session, sent, connect, answer } = setup();
      void conversation(session);
      connect();
      sent();
      const done = session.send("set_model", { provider: "scripted", modelId: "b" });
      answer("set_model", model("b"));
      await done;
      assert.deepEqual(conversation(session).getSnapshot().info.model, model("b"));
      assert.deepEqual(sent(), ["set_model", "get_state", "get_available_thinking_levels"]);
    });

    test("cycle_model: model and level from the answer, then get_state and the levels", async () => {
      const { session, sent, connect, answer } = setup();
      void conversation(session);
      connect();
      sent();
      const done = session.send("cycle_model", {});
      answer("cycle_model", { model: model("b"), thinkingLevel: "high", isScoped: false });
      await done;
      const { info } = conversation(session).getSnapshot();
      assert.deepEqual([info.model?.id, info.thinkingLevel], ["b", "high"]);
      assert.deepEqual(sent(), ["cycle_model", "get_state", "get_available_thinking_levels"]);
    });

    test("set_thinking_level: the level asked for, then get_state says what pi chose", async () => {
      const { session, sent, connect, answer } = setup();
      void conversation(session);
      connect();
      sent();
      const done = session.send("set_thinking_level", { level: "xhigh" });
      answer("set_thinking_level");
      await done;
      assert.equal(conversation(session).getSnapshot().info.thinkingLevel, "xhigh");
      assert.deepEqual(sent(), ["set_thinking_level", "get_state"]);
      answer("get_state", state({ thinkingLevel: "high" }));
      assert.equal(conversation(session).getSnapshot().info.thinkingLevel, "high");
    });

    test("cycle_thinking_level: the level from the answer", async () => {
      const { session, sent, connect, answer } = setup();
      void conversation(session);
      connect();
      sent();
      const done = session.send("cycle_thinking_level", {});
      answer("cycle_thinking_level", { level: "low" });
      await done;
      assert.equal(conversation(session).getSnapshot().info.thinkingLevel, "low");
      assert.deepEqual(sent(), ["cycle_thinking_level"]);
    });

    for (const [type, params, data] of [
      ["new_session", {}, { cancelled: false }],
      ["switch_session", { sessionPath: "/s.jsonl" }, { cancelled: false }],
      ["fork", { entryId: "e1" }, { text: "hi", cancelled: false }],
    ] as const) {
      test(`${type} answered: the conversation resets and everything is asked again; cancelled: nothing`, async () => {
        const { session, sent, connect, answer } = setup();
        void conversation(session);
        connect();
        sent();
        const cancelled = session.send(type, params as never);
        answer(type, { ...data, cancelled: true });
        await cancelled;
        assert.equal(conversation(session).getSnapshot().entries.length, 2, "cancelled: the conversation stays");
        assert.deepEqual(sent(), [type]);
        const done = session.send(type, params as never);
        answer(type, data);
        await done;
        const snapshot = conversation(session).getSnapshot();
        assert.deepEqual(snapshot.entries, []);
        assert.equal(snapshot.historyLoaded, false);
        assert.deepEqual(sent(), [type, ...CONNECT]);
        answer("get_messages", { messages: [user("forked", 9)] });
        assert.deepEqual(
          conversation(session)
            .getSnapshot()
            .entries.map((entry) => entry.kind !== "notice" && entry.message),
          [user("forked", 9)],
        );
      });
    }

    for (const [type, data] of [
      ["new_session", { cancelled: false }],
      ["switch_session", { cancelled: false }],
      ["fork", { text: "hi", cancelled: false }],
    ] as const) {
      test(`another client's ${type} (its answer reaches every client of a bridge): reset and asked again; cancelled: nothing`, () => {
        const { session, sent, connect, answer, transport } = setup();
        void conversation(session);
        connect();
        sent();
        transport.receive({
          type: "response",
          id: "other-tab-1",
          command: type,
          success: true,
          data: { cancelled: true },
        });
        assert.equal(conversation(session).getSnapshot().entries.length, 2, "cancelled: the conversation stays");
        assert.deepEqual(sent(), []);
        transport.receive({ type: "response", id: "other-tab-2", command: type, success: true, data });
        assert.deepEqual(conversation(session).getSnapshot().entries, [], "the other tab's new session shows here too");
        assert.deepEqual(sent(), CONNECT);
        answer("get_messages", { messages: [user("forked", 9)] });
        assert.equal(conversation(session).getSnapshot().entries.length, 1);
      });
    }

    test("another client's model, thinking level or name change, or its bash command: pi is asked again", () => {
      const { session, sent, connect, transport } = setup();
      void conversation(session);
      connect();
      sent();
      const other = (command: string, data?: unknown) =>
        transport.receive({ type: "response", id: `other-${command}`, command, success: true, data });
      other("set_model", model("b"));
      assert.deepEqual(sent(), ["get_state", "get_available_thinking_levels"]);
      other("cycle_model", { model: model("c"), thinkingLevel: "low", isScoped: false });
      assert.deepEqual(sent(), ["get_state", "get_available_thinking_levels"]);
      other("set_thinking_level");
      assert.deepEqual(sent(), ["get_state"]);
      other("cycle_thinking_level", { level: "high" });
      assert.deepEqual(sent(), ["get_state"]);
      other("set_session_name");
      assert.deepEqual(sent(), ["get_state"]);
      other("bash", { output: "", exitCode: 0, cancelled: false, truncated: false });
      assert.deepEqual(sent(), ["get_messages"]);
      other("get_state", state());
      other("get_messages", { messages: [] });
      assert.deepEqual(sent(), [], "another client's reads change nothing here");
      transport.receive({ type: "response", id: "other-x", command: "new_session", success: false, error: "no" });
      assert.deepEqual(sent(), [], "a failed one neither");
      assert.equal(conversation(session).getSnapshot().entries.length, 2);
    });

    test("thinking_level_changed and session_info_changed update the info with nothing sent", () => {
      const { session, sent, connect, transport } = setup();
      void conversation(session);
      connect();
      sent();
      transport.receive(
        { type: "thinking_level_changed", level: "off" },
        { type: "session_info_changed", name: "renamed" },
      );
      let { info } = conversation(session).getSnapshot();
      assert.deepEqual([info.thinkingLevel, info.sessionName], ["off", "renamed"]);
      transport.receive({ type: "session_info_changed" });
      ({ info } = conversation(session).getSnapshot());
      assert.equal(info.sessionName, undefined, "no name: cleared");
      assert.deepEqual(sent(), []);
    });

    test("stats after each agent_end", () => {
      const { session, sent, connect, transport, answer } = setup();
      void conversation(session);
      connect();
      sent();
      for (const total of [30, 45]) {
        transport.receive({ type: "agent_start" }, ...userTurn("again", total), {
          type: "agent_end",
          messages: [user("again", total)],
        });
        assert.deepEqual(sent(), ["get_session_stats"]);
        answer("get_session_stats", stats(total));
        assert.equal(conversation(session).getSnapshot().info.stats?.tokens.total, total);
      }
    });

    test("a reconnect asks everything again, drops the stream of the gap and merges the history", () => {
      const { session, sent, connect, transport, answer } = setup();
      const store = conversation(session);
      connect();
      const before = store.getSnapshot().entries;
      const answerText = assistant([{ type: "text", text: "streamed across a gap" }], { timestamp: 3 });
      transport.receive({ type: "agent_start" }, ...streamAssistant("1.6.0", answerText).slice(0, 4));
      assert.ok(store.getSnapshot().streaming);
      sent();
      transport.setState("reconnecting");
      assert.deepEqual(sent(), []);
      transport.setState("open");
      assert.deepEqual(sent(), CONNECT);
      assert.equal(store.getSnapshot().streaming, undefined, "deltas of the gap are lost: the stream is dropped");
      answer("get_state", state({ isStreaming: false }));
      answer("get_messages", {
        messages: [user("hi", 1), assistant([{ type: "text", text: "hello" }], { timestamp: 2 }), answerText],
      });
      const after = store.getSnapshot();
      assert.equal(after.entries[0], before[0], "unchanged messages keep their entries");
      assert.equal(after.entries[1], before[1]);
      assert.deepEqual(after.entries[2]?.kind === "message" && after.entries[2].message, answerText);
      assert.equal(after.run.status, "idle", "get_state says pi is idle");
    });

    test("the agent exits mid-run: the store is not working, the message being streamed goes, and so does 'streaming'", () => {
      for (const version of ["0.73.1", "1.6.0"] as const) {
        const { session, connect, transport } = setup();
        const store = conversation(session);
        connect();
        const answerText = assistant([{ type: "text", text: "cut off by the exit" }], { timestamp: 3 });
        transport.receive({ type: "agent_start" }, ...streamAssistant(version, answerText).slice(0, 4));
        schedules.get(session)!.runAll();
        assert.equal(store.getSnapshot().run.status, "streaming", version);
        assert.equal(store.getSnapshot().info.isStreaming, true, version);
        transport.receive({ type: "pi-elements/agent_exit", code: 143, signal: null, stderrTail: [] });
        schedules.get(session)!.runAll();
        const after = store.getSnapshot();
        assert.equal(after.run.status, "idle", `${version}: pi is not working`);
        assert.equal(after.info.isStreaming, false, version);
        assert.equal(after.streaming, undefined, `${version}: nothing streams any more`);
        assert.equal(after.run, session.ui.getSnapshot().run, `${version}: the session's run, the same object`);
      }
    });

    test("a run that ended while the page was away: after the bridge's hello the store is idle, as the session is", () => {
      const { session, connect, transport } = setup();
      const store = conversation(session);
      connect();
      transport.receive({ type: "agent_start" });
      assert.equal(store.getSnapshot().run.working, true);
      transport.setState("reconnecting");
      // The bridge's replay after hello brings back a run still going (its agent_start); this one ended.
      transport.setState("open");
      transport.receive({ type: "pi-elements/hello", protocol: 1 });
      schedules.get(session)!.runAll();
      assert.equal(session.ui.getSnapshot().run.working, false);
      assert.equal(store.getSnapshot().run.working, false, "the store does not say pi works");
      assert.equal(store.getSnapshot().info.isStreaming, false);
      transport.receive({ type: "pi-elements/hello", protocol: 1 }, { type: "agent_start" });
      schedules.get(session)!.runAll();
      assert.equal(store.getSnapshot().run.status, "streaming", "a run still going comes back with its agent_start");
    });

    test("another client's get_state answer, heard through the bridge, tells the store and the session alike", () => {
      const { session, connect, transport } = setup();
      const store = conversation(session);
      connect();
      transport.receive({ type: "agent_start" });
      transport.receive({ type: "response", id: "other-page-1", command: "get_state", success: true, data: state() });
      schedules.get(session)!.runAll();
      assert.equal(session.ui.getSnapshot().run.working, false);
      assert.equal(store.getSnapshot().run.working, false);
    });

    test("first called while connecting: nothing is sent until the transport opens, then the connect", () => {
      const { session, sent, transport } = setup();
      transport.setState("connecting");
      void conversation(session);
      assert.deepEqual(sent(), []);
      transport.setState("open");
      assert.deepEqual(sent(), CONNECT);
    });

    test("a new pi process behind the bridge resets the conversation and asks everything again", () => {
      const { session, sent, connect, transport } = setup();
      void conversation(session);
      connect();
      sent();
      transport.receive({ type: "pi-elements/agent_start" });
      assert.deepEqual(conversation(session).getSnapshot().entries, []);
      assert.deepEqual(sent(), CONNECT);
    });

    test("compaction_end with a result asks for the compacted history and stats", () => {
      const { session, sent, connect, transport } = setup();
      void conversation(session);
      connect();
      sent();
      transport.receive(
        { type: "compaction_start", reason: "manual" },
        { type: "compaction_end", reason: "manual", result: { summary: "S", tokensBefore: 5 }, aborted: false },
      );
      assert.deepEqual(sent(), ["get_messages", "get_session_stats"]);
      transport.receive(
        { type: "compaction_start", reason: "manual" },
        { type: "compaction_end", reason: "manual", aborted: true },
      );
      assert.deepEqual(sent(), []);
    });

    test("1.6's entry_appended of a context_edit asks for the history, which shows pi's context as edited", () => {
      const { session, sent, connect, transport, answer } = setup();
      void conversation(session);
      connect();
      sent();
      transport.receive({ type: "entry_appended", entry: { type: "custom", customType: "x", data: {} } });
      assert.deepEqual(sent(), [], "an extension's own entry is no message");
      transport.receive({
        type: "entry_appended",
        entry: { type: "context_edit", id: "e2", parentId: "e1", targetId: "e1", replacement: null },
      });
      assert.deepEqual(sent(), ["get_messages"]);
      // The edit took the answer out of pi's context (ids are not on RPC messages: only the history can say which).
      answer("get_messages", { messages: [user("hi", 1)] });
      assert.deepEqual(
        conversation(session)
          .getSnapshot()
          .entries.map((entry) => entry.kind !== "notice" && entry.message.role),
        ["user"],
      );
    });

    test("a bash command's message arrives with the history asked after its answer", async () => {
      const { session, sent, connect, answer } = setup();
      void conversation(session);
      connect();
      sent();
      const done = session.send("bash", { command: "ls" });
      answer("bash", { output: "a\n", exitCode: 0, cancelled: false, truncated: false });
      await done;
      assert.deepEqual(sent(), ["bash", "get_messages"]);
    });

    test("a message pi sends that fails its schema is a diagnostic and an `other` entry", () => {
      const { session, connect, transport } = setup();
      const diagnostics: string[] = [];
      session.addEventListener("diagnostic", (event) => diagnostics.push(event.value.message));
      void conversation(session);
      connect();
      transport.receive({ type: "message_end", message: { role: "assistant", content: "not blocks" } });
      assert.equal(conversation(session).getSnapshot().entries.at(-1)?.kind, "other");
      assert.match(diagnostics[0] ?? "", /invalid assistant message/);
    });
  });
});
