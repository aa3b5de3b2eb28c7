/**
 * pi-transcript's announcements (packages/elements/src/elements/transcript/announcer.ts), over snapshots of a real
 * ConversationState fed both of pi's wire forms: one announcement per finished assistant message, never per token;
 * its words, or its tools, or that it failed or was stopped.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AgentEventBase } from "@pi-elements/core";
import { type ConversationSnapshot, ConversationState } from "@pi-elements/core/conversation";
import { assistant, streamAssistant, userTurn, VERSIONS } from "../../core/test/conversation-wire.js";
import { Announcer } from "../src/elements/transcript/announcer.js";
import { appended } from "../src/elements/transcript/entries.js";

/** The keys and values the announcer asked for, as one line each. */
const t = (key: string, values?: Record<string, string | number>) => `${key} ${JSON.stringify(values ?? {})}`;

/** Feeds `events` one at a time, telling the announcer of every snapshot as pi-transcript does. */
function announce(events: readonly object[]): { announcer: Announcer; texts: string[] } {
  const state = new ConversationState();
  const announcer = new Announcer(t);
  const texts: string[] = [];
  let prev: ConversationSnapshot = state.getSnapshot();
  for (const event of events) {
    state.apply(event as AgentEventBase);
    const next = state.getSnapshot();
    const before = announcer.count;
    announcer.observe(prev, next, appended(prev.entries, next.entries));
    if (announcer.count !== before) texts.push(announcer.text);
    prev = next;
  }
  return { announcer, texts };
}

describe("the transcript's announcer", () => {
  for (const version of VERSIONS) {
    it(`announces a finished answer once, by its words, not per token (pi ${version})`, () => {
      const text = `The answer, ${"word ".repeat(80)}end.`;
      const events = [
        { type: "agent_start" },
        ...userTurn("a question"),
        ...streamAssistant(version, assistant([{ type: "text", text }]), 20),
        { type: "agent_end", messages: [] },
      ];
      const { texts } = announce(events);
      assert.equal(texts.length, 1);
      const said = JSON.parse(texts[0]!.slice("announceMessage ".length)).text as string;
      assert.ok(texts[0]!.startsWith("announceMessage "), texts[0]);
      assert.equal(said.length, 200, "shortened to 200 characters");
      assert.ok(said.startsWith("The answer, word word") && said.endsWith("…"), said);
    });

    it(`announces the words shown, not the Markdown written (pi ${version})`, () => {
      const text = "**`greet()`** is fixed.\n\n```ts\ngreet();\n```\n\n| file | lines |\n|---|---|\n| a.ts | 3 |";
      const events = [
        { type: "agent_start" },
        ...userTurn("a question"),
        ...streamAssistant(version, assistant([{ type: "text", text }]), 5),
        { type: "agent_end", messages: [] },
      ];
      const { texts } = announce(events);
      assert.deepEqual(texts, [
        `announceMessage ${JSON.stringify({ text: "greet() is fixed. greet(); file lines a.ts 3" })}`,
      ]);
    });

    it(`announces a message of tool calls by their names, a failed and a stopped one by what happened (pi ${version})`, () => {
      const tools = assistant([
        { type: "toolCall", id: "c1", name: "read", arguments: { path: "a" } },
        { type: "toolCall", id: "c2", name: "bash", arguments: { command: "ls" } },
      ]);
      const failed = assistant([{ type: "text", text: "partial" }], {
        stopReason: "error",
        errorMessage: "overloaded",
      });
      const stopped = assistant([{ type: "text", text: "partial" }], { stopReason: "aborted" });
      const { texts } = announce([
        { type: "agent_start" },
        ...streamAssistant(version, tools),
        ...streamAssistant(version, failed),
        ...streamAssistant(version, stopped),
      ]);
      assert.deepEqual(texts, [
        'announceTools {"tools":"read, bash"}',
        'announceFailed {"error":"overloaded"}',
        "announceAborted {}",
      ]);
    });
  }

  it("announces nothing for a history that arrives at once, or a message with nothing to say", () => {
    const state = new ConversationState();
    const announcer = new Announcer(t);
    const empty = state.getSnapshot();
    state.apply({ type: "agent_start" } as AgentEventBase);
    for (const event of streamAssistant("1.6.0", assistant([{ type: "thinking", thinking: "hmm" }]))) {
      const prev = state.getSnapshot();
      state.apply(event as AgentEventBase);
      const next = state.getSnapshot();
      announcer.observe(prev, next, appended(prev.entries, next.entries));
    }
    const next = state.getSnapshot();
    announcer.observe(empty, next, appended(empty.entries, next.entries));
    assert.equal(announcer.count, 0);
  });
});
