/**
 * The recorded conversations are what they claim to be (test/fixtures/conversation/README.md): a re-recording that
 * lost a scenario's point, broke a line, or stopped before pi was idle fails here. For each pi version and scenario:
 * every line is JSON, the stream of deltas adds up to each final assistant message, the scenario's events are there,
 * and it ends with successful get_messages, get_state and get_session_stats responses. The facts the README gives
 * about how the versions' streams differ are checked on the recordings too.
 */
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { homedir } from "node:os";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import {
  CONVERSATION_FIXTURES,
  CONVERSATION_SCENARIOS,
  CONVERSATION_VERSIONS,
  type ConversationScenario,
  type ConversationVersion,
  loadConversation,
  type RecordedConversation,
  type RecordedMessage,
} from "./conversation-fixtures.js";

type Block = { type: string; text?: string; thinking?: string; arguments?: unknown };
type AgentMessage = RecordedMessage & { role: string; content?: unknown };

const ofType = (c: RecordedConversation, type: string) => c.records.filter((r) => r.type === type);
const updates = (c: RecordedConversation, type: string) =>
  ofType(c, "message_update")
    .map((r) => r.assistantMessageEvent as RecordedMessage)
    .filter((e) => e.type === type);
const ended = (c: RecordedConversation, role: string) =>
  ofType(c, "message_end")
    .map((r) => r.message as AgentMessage)
    .filter((m) => m.role === role);
const responseData = (c: RecordedConversation, command: string) => {
  const response = [...c.records].reverse().find((r) => r.type === "response" && r.command === command);
  assert.ok(response, `a ${command} response`);
  assert.equal(response.success, true, `${command} succeeded: ${JSON.stringify(response.error)}`);
  return response.data as RecordedMessage;
};
/** The assistantMessageEvent types, in order. */
const eventTypes = (c: RecordedConversation) =>
  ofType(c, "message_update").map((r) => (r.assistantMessageEvent as RecordedMessage).type as string);
const finalMessages = (c: RecordedConversation) => responseData(c, "get_messages").messages as AgentMessage[];
const textOf = (m: AgentMessage) =>
  typeof m.content === "string"
    ? m.content
    : (m.content as Block[])
        .filter((b) => b.type === "text")
        .map((b) => b.text)
        .join("");

/** What each scenario is about, checked on both versions' recordings. */
const scenarioChecks: Record<ConversationScenario, (c: RecordedConversation) => void> = {
  text(c) {
    assert.ok(updates(c, "text_delta").length >= 3, "several text deltas");
    assert.equal(
      textOf(ended(c, "assistant").at(-1) as AgentMessage),
      "Hello! I am the scripted model. How can I help?",
    );
  },
  markdown(c) {
    const text = textOf(ended(c, "assistant").at(-1) as AgentMessage);
    assert.match(text, /^## Plan\n/);
    assert.match(text, /\n```ts\n.*\n```\n/);
    assert.ok(updates(c, "text_delta").length >= 10, "the Markdown streams in many deltas");
  },
  thinking(c) {
    const thinking = updates(c, "thinking_delta");
    assert.ok(thinking.length >= 3, "several thinking deltas");
    assert.equal(updates(c, "thinking_start").length, 1);
    assert.equal(updates(c, "thinking_end").length, 1);
    const message = ended(c, "assistant").at(-1) as AgentMessage;
    const blocks = message.content as Block[];
    assert.deepEqual(
      blocks.map((b) => b.type),
      ["thinking", "text"],
    );
    assert.equal(blocks[0]?.thinking, "The user wants a number. Six times seven is forty-two.");
    // Blocks close when the stream finishes: the thinking block ends after the text has streamed.
    const kinds = eventTypes(c);
    assert.ok(kinds.indexOf("thinking_end") > kinds.lastIndexOf("text_delta"), "thinking_end after the text deltas");
    assert.deepEqual(finalMessages(c).at(-1)?.content, blocks, "get_messages has the thinking block");
    const usage = message.usage as { input: number; output: number; cacheRead: number };
    assert.deepEqual(
      [usage.input, usage.output, usage.cacheRead],
      [20, 30, 100],
      "the model's usage, cached split out",
    );
    const stats = responseData(c, "get_session_stats").tokens as { cacheRead: number };
    assert.equal(stats.cacheRead, 100);
  },
  tools(c) {
    const ends = ofType(c, "tool_execution_end");
    assert.deepEqual(
      ends.map((e) => [e.toolName, e.isError]),
      [
        ["bash", false],
        ["read", false],
        ["write", false],
        ["edit", false],
        ["read", true],
      ],
    );
    const starts = ofType(c, "tool_execution_start");
    assert.deepEqual(
      starts.map((s) => s.toolCallId),
      ends.map((e) => e.toolCallId),
      "every tool started and ended",
    );
    // The bash output streams as the accumulated output so far: each update replaces the last.
    const bash = ofType(c, "tool_execution_update")
      .filter((u) => u.toolName === "bash")
      .map((u) => textOf(u.partialResult as AgentMessage));
    assert.ok(bash.filter((t) => t !== "").length >= 2, `bash streamed its output: ${JSON.stringify(bash)}`);
    for (let i = 1; i < bash.length; i++) {
      assert.ok(bash[i]?.startsWith(bash[i - 1] as string), `update ${i} holds update ${i - 1}`);
    }
    assert.equal(bash.at(-1), "line 1\nline 2\nline 3\n");
    assert.equal(bash[0], "", "an empty update first");
    const kinds = eventTypes(c);
    assert.ok(kinds.indexOf("text_end") > kinds.indexOf("toolcall_start"), "the text block ends after the call starts");
    const edit = ends[3]?.result as { details?: { diff?: string } };
    assert.match(edit.details?.diff ?? "", /^-2 {3}return "Hello, " \+ name;$/m);
    assert.match(edit.details?.diff ?? "", /^\+2 {3}return "Hi, " \+ name \+ "!";$/m);
    const results = finalMessages(c).filter((m) => m.role === "toolResult");
    assert.deepEqual(
      results.map((m) => [m.toolName, m.isError]),
      ends.map((e) => [e.toolName, e.isError]),
    );
    assert.match(textOf(results[4] as AgentMessage), /ENOENT/);
  },
  error(c) {
    const failed = ended(c, "assistant").at(-1) as AgentMessage;
    assert.equal(failed.stopReason, "error");
    assert.match(String(failed.errorMessage), /400/);
    assert.match(String(failed.errorMessage), /refuses this prompt/);
    assert.equal(ofType(c, "auto_retry_start").length, 0, "a 400 is not retried");
    assert.equal(finalMessages(c).at(-1)?.stopReason, "error");
  },
  retry(c) {
    const [start] = ofType(c, "auto_retry_start");
    assert.equal(start?.attempt, 1);
    assert.match(String(start?.errorMessage), /network_error/);
    const [end] = ofType(c, "auto_retry_end");
    assert.equal(end?.success, true);
    const assistants = ended(c, "assistant");
    assert.deepEqual(
      assistants.map((m) => m.stopReason),
      ["error", "stop"],
    );
    assert.equal(textOf(assistants[1] as AgentMessage), "Second try worked.");
    const types = c.records.map((r) => r.type);
    assert.ok(
      types.indexOf("auto_retry_end") < types.lastIndexOf("turn_end"),
      "auto_retry_end before the last turn_end",
    );
    assert.ok(!finalMessages(c).some((m) => m.stopReason === "error"), "the failed attempt is gone from get_messages");
    if (c.version === "1.6.0") {
      const [edit] = ofType(c, "entry_appended").map((r) => r.entry as RecordedMessage);
      assert.deepEqual([edit?.type, edit?.replacement], ["context_edit", null], "1.6.0 says the failed message left");
    }
  },
  abort(c) {
    const [aborted] = ended(c, "assistant");
    assert.equal(aborted?.stopReason, "aborted");
    const streamed = textOf(aborted as AgentMessage);
    assert.ok(streamed.length > 0, "some text streamed before the abort");
    assert.ok("This answer streams slowly so that it can be aborted".startsWith(streamed.slice(0, 20)));
    assert.ok(streamed.length < 60, "the abort cut the answer short");
    responseData(c, "abort");
    const types = c.records.map((r) => (r.type === "response" ? `response:${r.command}` : r.type));
    const idle = c.version === "0.73.1" ? "agent_end" : "agent_settled";
    assert.ok(types.indexOf("response:abort") > types.indexOf(idle), `abort answers after ${idle}`);
    if (c.version === "1.6.0") assert.equal(ofType(c, "agent_settled").at(-1)?.aborted, true);
    assert.equal(finalMessages(c).at(-1)?.stopReason, "aborted");
  },
  "abort-tool"(c) {
    const assistantsEnded = ended(c, "assistant");
    // First run: Stop while the write call streamed. The aborted message holds the call; pi runs no tool.
    const cut = assistantsEnded[0];
    assert.ok(cut);
    assert.equal(cut.stopReason, "aborted");
    const call = (cut.content as Block[]).find((block) => block.type === "toolCall") as
      | { id: string; name: string; arguments: unknown }
      | undefined;
    assert.deepEqual([call?.name, call?.arguments], ["write", {}]);
    assert.ok(updates(c, "toolcall_delta").length > 0, "the arguments were streaming");
    assert.deepEqual(
      ofType(c, "tool_execution_start").map((start) => start.toolName),
      ["bash"],
      "no run of the cut write call",
    );
    // Second run: Stop while bash ran. pi ends the run itself, then the run with an empty aborted message.
    const end = ofType(c, "tool_execution_end")[0];
    assert.ok(end);
    assert.equal(end.isError, true);
    assert.deepEqual((end.result as { content: unknown }).content, [{ type: "text", text: "Command aborted" }]);
    assert.equal(assistantsEnded.at(-1)?.stopReason, "aborted");
    assert.equal(ofType(c, "agent_start").length, 2);
  },
  steer(c) {
    const queues = ofType(c, "queue_update").map((q) => [q.steering, q.followUp]);
    assert.deepEqual(queues, [
      [["Mention blue"], []],
      [["Mention blue"], ["Then say goodbye"]],
      [[], ["Then say goodbye"]],
      [[], []],
    ]);
    // The second and third lines sent are the steer and the follow-up.
    const queuedIds = c.sent.slice(1, 3).map(({ line }) => (JSON.parse(line) as RecordedMessage).id);
    const dispositions = queuedIds.map((id) => {
      const response = c.records.find((r) => r.type === "response" && r.id === id);
      return (response?.data as { disposition?: string } | undefined)?.disposition;
    });
    assert.deepEqual(dispositions, c.version === "0.73.1" ? [undefined, undefined] : ["queued", "queued"]);
    const conversation = finalMessages(c)
      .filter((m) => m.role === "user" || m.role === "assistant")
      .map((m) => `${m.role}: ${textOf(m)}`);
    assert.deepEqual(conversation, [
      "user: Count to five slowly",
      "assistant: Counting: one, two, three, four, five.",
      "user: Mention blue",
      "assistant: Steered: blue it is.",
      "user: Then say goodbye",
      "assistant: Follow-up: goodbye.",
    ]);
  },
  compaction(c) {
    assert.deepEqual(
      ofType(c, "compaction_start").map((e) => e.reason),
      ["manual"],
    );
    const [end] = ofType(c, "compaction_end");
    assert.ok(end, "compaction_end");
    assert.equal(end.aborted, false);
    const summary = (end.result as { summary?: string }).summary;
    assert.match(summary ?? "", /Lumen project/);
    const visible = finalMessages(c).filter((m) => m.role !== "system");
    assert.equal(visible[0]?.role, "compactionSummary");
    assert.equal(visible[0]?.summary, summary);
    assert.deepEqual(
      visible.slice(1).map((m) => textOf(m)),
      ["It targets the web.", "Noted: it targets the web."],
      "only the last turn is kept",
    );
  },
  bash(c) {
    const result = responseData(c, "bash");
    assert.deepEqual(result, { output: "first\nsecond\n", exitCode: 0, cancelled: false, truncated: false });
    const execution = finalMessages(c).find((m) => m.role === "bashExecution");
    assert.ok(execution, "get_messages holds the command as a bashExecution message");
    assert.equal(execution.command, "echo first; sleep 0.2; echo second");
    assert.equal(execution.output, "first\nsecond\n");
    assert.equal(
      ofType(c, "message_end").some((r) => (r.message as AgentMessage).role === "bashExecution"),
      false,
      "no message event announces it",
    );
    // 1.6.0 streams the output as appended deltas, keyed by the bash command's id; 0.73.1 streams nothing.
    const streamed = ofType(c, "bash_execution_update");
    if (c.version === "0.73.1") assert.equal(streamed.length, 0);
    else {
      const id = JSON.parse(c.sent[0]?.line ?? "{}").id;
      assert.ok(streamed.every((u) => u.id === id));
      assert.equal(streamed.map((u) => u.delta).join(""), "first\nsecond\n");
    }
  },
  custom(c) {
    const custom = ended(c, "custom").map((m) => [m.customType, m.display]);
    assert.deepEqual(custom, [
      ["fixture-hidden", false],
      ["fixture-note", true],
    ]);
    const note = ended(c, "custom")[1] as AgentMessage;
    assert.equal(note.content, "Build finished: 3 warnings.");
    assert.deepEqual(note.details, { warnings: 3, target: "web" });
    assert.deepEqual(
      finalMessages(c)
        .filter((m) => m.role === "custom")
        .map((m) => [m.customType, m.display]),
      custom,
    );
    const kept = finalMessages(c).find((m) => m.customType === "fixture-note");
    assert.deepEqual(kept?.details, note.details, "get_messages keeps the details");
    assert.equal(textOf(ended(c, "assistant").at(-1) as AgentMessage), "I see the build finished with 3 warnings.");
  },
};

/** Concatenates each assistant message's deltas per content index and compares them with its final blocks. */
function assertDeltasAddUp(c: RecordedConversation): void {
  let streamed: Map<number, string> | undefined;
  for (const record of c.records) {
    const message = record.message as AgentMessage | undefined;
    if (record.type === "message_start" && message?.role === "assistant") streamed = new Map();
    if (record.type === "message_update") {
      assert.ok(streamed, "a message_update inside an assistant message");
      const event = record.assistantMessageEvent as { type: string; contentIndex?: number; delta?: string };
      if (event.type.endsWith("_delta")) {
        const index = event.contentIndex as number;
        streamed.set(index, (streamed.get(index) ?? "") + event.delta);
      }
    }
    if (record.type === "message_end" && message?.role === "assistant") {
      assert.ok(streamed, "the assistant message started");
      const blocks = message.content as Block[];
      assert.deepEqual([...streamed.keys()].sort(), [...blocks.keys()], "a delta for every block");
      for (const [index, block] of blocks.entries()) {
        const text: string = streamed.get(index) ?? "";
        if (block.type === "toolCall" && message.stopReason === "aborted" && !parses(text)) {
          // A call cut while its arguments streamed: pi keeps the call and drops what had streamed of them.
          assert.deepEqual(block.arguments, {}, "a cut call's arguments");
        } else if (block.type === "toolCall") assert.deepEqual(JSON.parse(text), block.arguments);
        else assert.equal(text, block.type === "thinking" ? block.thinking : block.text);
      }
      streamed = undefined;
    }
  }
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** What the README says about each version's stream, checked on every recording of it. */
const versionChecks: Record<ConversationVersion, (c: RecordedConversation) => void> = {
  "0.73.1"(c) {
    let streamed = new Map<number, string>();
    for (const update of c.records) {
      if (update.type === "message_start") streamed = new Map();
      if (update.type !== "message_update") continue;
      const event = update.assistantMessageEvent as RecordedMessage & { contentIndex: number; delta: string };
      assert.ok(update.message && event.partial, "the whole partial message, twice, on every update");
      // The same blocks twice; top-level fields (stopReason, errorMessage) can differ: partial is the live object.
      assert.deepEqual(
        (update.message as { content: unknown }).content,
        (event.partial as { content: unknown }).content,
        "the same blocks twice",
      );
      if (event.type === "text_delta" || event.type === "thinking_delta") {
        // The partial is serialized when pi writes the line: it holds at least the deltas so far, maybe more.
        const sofar = (streamed.get(event.contentIndex) ?? "") + event.delta;
        streamed.set(event.contentIndex, sofar);
        const block = (event.partial as { content: Block[] }).content[event.contentIndex];
        assert.ok((block?.text ?? block?.thinking ?? "").startsWith(sofar), "the partial is never behind the deltas");
      }
      assert.equal(update.usage, undefined);
      if (event.type === "toolcall_start") assert.equal(event.id, undefined, "no id in toolcall_start");
    }
    for (const end of ofType(c, "tool_execution_end")) assert.equal(end.durationMs, undefined);
    for (const type of ["agent_settled", "entry_appended"]) assert.equal(ofType(c, type).length, 0, type);
    assert.ok(!finalMessages(c).some((m) => m.role === "system"), "no system message");
    for (const start of ofType(c, "message_start")) {
      const message = start.message as AgentMessage;
      if (message.role === "assistant") assert.notEqual(message.stopReason, "pending");
    }
  },
  "1.6.0"(c) {
    for (const update of ofType(c, "message_update")) {
      const event = update.assistantMessageEvent as RecordedMessage;
      assert.equal(update.message, undefined, "no whole message on an update");
      assert.equal(event.partial, undefined, "no partial on an update");
      assert.ok(update.usage, "cumulative usage on every update");
      if (event.type === "toolcall_start") assert.ok(event.id && event.toolName, "toolcall_start names the call");
    }
    for (const end of ofType(c, "tool_execution_end")) assert.equal(typeof end.durationMs, "number");
    assert.ok(ofType(c, "agent_settled").length >= 1, "agent_settled");
    assert.equal(finalMessages(c).filter((m) => m.role === "system").length, 1, "one system message");
    for (const start of ofType(c, "message_start")) {
      const message = start.message as AgentMessage;
      // A failed request's message starts as it ends (stopReason "error"), and so does one pi did not request because
      // the run was aborted first ("aborted": abort-tool's after bash); a streamed one starts "pending".
      if (message.role === "assistant" && message.stopReason !== "error" && message.stopReason !== "aborted")
        assert.equal(message.stopReason, "pending");
    }
  },
};

for (const version of CONVERSATION_VERSIONS) {
  describe(`the conversations recorded from pi ${version}`, () => {
    test("are the listed scenarios, each with what was sent", () => {
      const files = readdirSync(new URL(`${version}/`, CONVERSATION_FIXTURES)).sort();
      const expected = CONVERSATION_SCENARIOS.flatMap((s) => [`${s}.jsonl`, `${s}.sent.json`]).sort();
      assert.deepEqual(files, expected);
    });

    for (const scenario of CONVERSATION_SCENARIOS) {
      describe(scenario, () => {
        const c = loadConversation(version, scenario);

        test("every line is a JSON object with a type, LF-terminated", () => {
          assert.ok(c.bytes.at(-1) === 0x0a, "the stream ends with LF");
          for (const [i, record] of c.records.entries()) {
            assert.equal(typeof record.type, "string", `line ${i + 1} has a type`);
          }
        });

        test("every command sent was answered, and the recording ends with the three state responses", () => {
          let last = 0;
          for (const { afterRecords, line } of c.sent) {
            assert.ok(
              afterRecords >= last && afterRecords <= c.records.length,
              "afterRecords is a point in the stream",
            );
            last = afterRecords;
            const command = JSON.parse(line) as RecordedMessage;
            const answered = c.records.slice(afterRecords).some((r) => r.type === "response" && r.id === command.id);
            assert.ok(answered, `${line} was answered`);
          }
          assert.deepEqual(
            c.records.slice(-3).map((r) => [r.type, r.command, r.success]),
            [
              ["response", "get_messages", true],
              ["response", "get_state", true],
              ["response", "get_session_stats", true],
            ],
          );
          const state = responseData(c, "get_state");
          assert.equal(state.isStreaming, false, "pi was idle when the state was asked for");
          assert.equal(state.isCompacting, false);
          assert.equal(state.pendingMessageCount, 0);
          assert.equal((responseData(c, "get_session_stats").totalMessages as number) > 0, true);
        });

        test("the deltas add up to every final assistant message", () => assertDeltasAddUp(c));

        test("nothing of the recording machine is in it: not the repository's path, not the user's home", () => {
          const text = `${c.bytes.toString("utf8")}\n${c.sent.map((s) => s.line).join("\n")}\n${c.argv.join(" ")}`;
          const repository = fileURLToPath(new URL("../../../", import.meta.url));
          assert.equal(text.includes(repository), false, `${repository} appears`);
          const home = homedir();
          if (home.length > 1) assert.equal(text.includes(`${home}/`), false, `${home} appears`);
        });

        test("get_messages ends with the last message pi committed", () => {
          const lastEnd = ofType(c, "message_end").at(-1)?.message;
          assert.deepEqual(finalMessages(c).at(-1), lastEnd);
        });

        test(`shows what the ${scenario} scenario is about`, () => scenarioChecks[scenario](c));

        test(`has pi ${version}'s stream shape`, () => versionChecks[version](c));
      });
    }
  });
}
