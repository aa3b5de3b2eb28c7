/**
 * Stories for pi-transcript: the conversation as pi's agent events build it, sent by the story's agent exactly as pi
 * 1.6.0 sends them (message_start / message_update deltas / message_end, tool_execution_*, the notices' events).
 * The transcript is not part of the extension-UI bundle: this module loads it itself.
 */
import "@pi-elements/elements/elements/transcript.js";
import { html } from "lit";
import { type StoryModule, story } from "../story.js";
import type { StoryAgent } from "../story-agent.js";

type Block =
  | { type: "text"; text: string }
  | { type: "thinking"; thinking: string }
  | { type: "toolCall"; id: string; name: string; arguments: Record<string, unknown> };

const usage = { input: 120, output: 40, cacheRead: 0, cacheWrite: 0, totalTokens: 160 };
let clock = 1_767_000_000_000;

function userTurn(agent: StoryAgent, text: string): void {
  const message = { role: "user", content: [{ type: "text", text }], timestamp: clock++ };
  agent.raw({ type: "message_start", message });
  agent.raw({ type: "message_end", message });
}

/**
 * Streams one assistant message in pi 1.6.0's form, `size` characters per delta; with `stopAt` it stops after that
 * many updates and leaves the message streaming.
 */
function assistantTurn(
  agent: StoryAgent,
  content: Block[],
  fields: Record<string, unknown> = {},
  options: { size?: number; stopAt?: number } = {},
): void {
  const size = options.size ?? 12;
  const base = { role: "assistant", provider: "scripted", model: "scripted-model", timestamp: clock++, ...fields };
  agent.raw({ type: "message_start", message: { ...base, content: [], stopReason: "pending", usage } });
  let updates = 0;
  const update = (event: Record<string, unknown>) => {
    if (options.stopAt !== undefined && updates >= options.stopAt) return false;
    agent.raw({ type: "message_update", usage, assistantMessageEvent: event });
    updates++;
    return true;
  };
  for (const [contentIndex, block] of content.entries()) {
    if (block.type === "toolCall") {
      if (!update({ type: "toolcall_start", contentIndex, id: block.id, toolName: block.name })) return;
      if (!update({ type: "toolcall_delta", contentIndex, delta: JSON.stringify(block.arguments) })) return;
      if (!update({ type: "toolcall_end", contentIndex, toolCall: block })) return;
      continue;
    }
    const whole = block.type === "text" ? block.text : block.thinking;
    if (!update({ type: `${block.type}_start`, contentIndex })) return;
    for (let i = 0; i < whole.length; i += size) {
      if (!update({ type: `${block.type}_delta`, contentIndex, delta: whole.slice(i, i + size) })) return;
    }
    if (!update({ type: `${block.type}_end`, contentIndex, content: whole })) return;
  }
  if (options.stopAt !== undefined) return;
  const stopReason = content.some((b) => b.type === "toolCall") ? "toolUse" : "stop";
  agent.raw({ type: "message_end", message: { ...base, content, stopReason, usage, ...fields } });
}

function toolRun(agent: StoryAgent, id: string, name: string, args: object, output: string, isError = false): void {
  agent.raw({ type: "tool_execution_start", toolCallId: id, toolName: name, args });
  const result = { content: [{ type: "text", text: output }], details: {} };
  agent.raw({ type: "tool_execution_end", toolCallId: id, toolName: name, result, isError });
  const message = {
    role: "toolResult",
    toolCallId: id,
    toolName: name,
    content: result.content,
    isError,
    timestamp: clock++,
  };
  agent.raw({ type: "message_start", message });
  agent.raw({ type: "message_end", message });
}

const ANSWER = `Here is the plan:

1. Read \`src/greet.ts\`.
2. Make **greet** take a name.

\`\`\`ts
export function greet(name: string): string {
  return \`Hello, \${name}!\`;
}
\`\`\`

> The tests still pass.`;

function conversation(agent: StoryAgent): void {
  agent.raw({ type: "agent_start" });
  userTurn(agent, "Make greet() take a name.\nKeep the tests green.");
  assistantTurn(agent, [
    { type: "thinking", thinking: "The user wants a parameter. First look at the file." },
    { type: "text", text: "Let me read the file first." },
    { type: "toolCall", id: "call_1", name: "read", arguments: { path: "src/greet.ts" } },
  ]);
  toolRun(agent, "call_1", "read", { path: "src/greet.ts" }, 'export function greet() {\n  return "Hello!";\n}');
  assistantTurn(agent, [{ type: "text", text: ANSWER }]);
  agent.raw({ type: "agent_end", messages: [] });
}

export const transcriptStories: StoryModule = {
  id: "transcript",
  title: "pi-transcript",
  description:
    "The conversation: user messages, pi's answers (Markdown through pi-markdown), thinking, tool calls as pi-tool-card, notices and errors. A feed: Page Up / Page Down between messages, Ctrl+O expands every tool card.",
  stories: [
    story({
      name: "A conversation",
      description: "A prompt, pi thinking, reading a file with a tool, and answering in Markdown.",
      knobs: {},
      render: ({ session }) =>
        html`<div style="block-size: 32rem"><pi-transcript .session=${session}></pi-transcript></div>`,
      play: (agent) => conversation(agent),
    }),
    story({
      name: "Streaming",
      description: "pi's answer still streaming: thinking open, the message aria-busy, the view pinned to the end.",
      knobs: {},
      render: ({ session }) =>
        html`<div style="block-size: 32rem"><pi-transcript .session=${session}></pi-transcript></div>`,
      play: (agent) => {
        conversation(agent);
        agent.raw({ type: "agent_start" });
        userTurn(agent, "And the tests?");
        assistantTurn(
          agent,
          [
            { type: "thinking", thinking: "Check the test file for greet calls without a name." },
            { type: "text", text: "The tests call `greet()` without a name, so they need one too. Updating them now" },
          ],
          {},
          { size: 6, stopAt: 18 },
        );
      },
    }),
    story({
      name: "Notices",
      description: "A retry after a network error, a compaction, an extension error, the user's own shell command.",
      knobs: {},
      render: ({ session }) =>
        html`<div style="block-size: 32rem"><pi-transcript .session=${session}></pi-transcript></div>`,
      play: (agent) => {
        agent.raw({ type: "agent_start" });
        userTurn(agent, "Answer despite a flaky network");
        assistantTurn(agent, [{ type: "text", text: "Sure, here" }], {
          stopReason: "error",
          errorMessage: "Provider finish_reason: network_error",
        });
        agent.raw({ type: "agent_end", messages: [], willRetry: true });
        agent.raw({
          type: "auto_retry_start",
          attempt: 1,
          maxAttempts: 3,
          delayMs: 2000,
          errorMessage: "Provider finish_reason: network_error",
        });
        agent.raw({ type: "agent_start" });
        assistantTurn(agent, [{ type: "text", text: "Second try worked." }]);
        agent.raw({ type: "auto_retry_end", success: true, attempt: 1 });
        agent.raw({ type: "agent_end", messages: [] });
        agent.raw({
          type: "extension_error",
          extensionPath: "extensions/guard.ts",
          event: "tool_call",
          error: "TypeError: cannot read properties of undefined (reading 'path')",
        });
        agent.raw({ type: "compaction_start", reason: "manual" });
        agent.raw({
          type: "compaction_end",
          reason: "manual",
          aborted: false,
          willRetry: false,
          result: { summary: "The user asked for an answer despite the network.", tokensBefore: 4200 },
        });
      },
    }),
    story({
      name: "Errors",
      description: "A failed turn with pi's error text, and an aborted one keeping what was streamed.",
      knobs: {},
      render: ({ session }) =>
        html`<div style="block-size: 32rem"><pi-transcript .session=${session}></pi-transcript></div>`,
      play: (agent) => {
        agent.raw({ type: "agent_start" });
        userTurn(agent, "Please fail");
        assistantTurn(agent, [], {
          stopReason: "error",
          errorMessage: '400: {"error":{"message":"Bad request: the scripted model refuses this prompt"}}',
        });
        agent.raw({ type: "agent_end", messages: [] });
        agent.raw({ type: "agent_start" });
        userTurn(agent, "Write a long story");
        assistantTurn(agent, [{ type: "text", text: "Once upon a time, in a repository far away" }], {
          stopReason: "aborted",
          errorMessage: "Request was aborted",
        });
        agent.raw({ type: "agent_end", messages: [] });
      },
    }),
    story({
      name: "Tool output expanded",
      description:
        "The same conversation with every tool card open (tools-expanded; Ctrl+O or the toolbar toggles it).",
      knobs: {},
      render: ({ session }) =>
        html`<div style="block-size: 32rem"><pi-transcript .session=${session} tools-expanded></pi-transcript></div>`,
      play: (agent) => conversation(agent),
    }),
    story({
      name: "A long history",
      description:
        "50 turns (100 entries) at once: the newest 60 paint first, the earlier ones fill in a chunk per frame; each is laid out only near the viewport, and stays findable.",
      knobs: { turns: { type: "number", value: 50, min: 1, max: 500, step: 1 } },
      render: ({ session }) =>
        html`<div style="block-size: 32rem"><pi-transcript .session=${session}></pi-transcript></div>`,
      play: (agent, args) => {
        for (let i = 1; i <= args.turns; i++) {
          userTurn(agent, `Question ${i}: what does step ${i} do?`);
          assistantTurn(
            agent,
            [{ type: "text", text: `Step **${i}** checks \`item-${i}\` and moves on.` }],
            {},
            { size: 400 },
          );
        }
      },
    }),
  ],
};
