/** Stories for what the agent shows without asking: statuses, widgets, notifications, the prompt. */
import { conversationOf } from "@pi-elements/core/conversation";
import type { PiPrompt } from "@pi-elements/elements";
import { html } from "lit";
import { ref } from "lit/directives/ref.js";
import { type StoryModule, story } from "../story.js";
import type { StoryAgent } from "../story-agent.js";
import { accent, bold, error, italic, lines, link, MARKUP, strike, success, warning } from "./text.js";

export const statusStories: StoryModule = {
  id: "status-bar",
  title: "pi-status-bar",
  description: "ctx.ui.setStatus: every status on one line, sorted by key, sanitized as pi does, ANSI rendered.",
  stories: [
    story({
      name: "Styled statuses",
      knobs: { wrap: { type: "boolean", value: false } },
      render: ({ session }, args) => html`<pi-status-bar .session=${session} ?wrap=${args.wrap}></pi-status-bar>`,
      play: (agent) => {
        agent.request("setStatus", { statusKey: "b-branch", statusText: `${accent("⎇ main")} +3 ~1` });
        agent.request("setStatus", { statusKey: "a-agent", statusText: success("● ready") });
        agent.request("setStatus", { statusKey: "c-tests", statusText: `${success("✓ 128")} ${error("✗ 2")}` });
        agent.request("setStatus", { statusKey: "d-lint", statusText: warning("⚠ 2 warnings") });
        agent.request("setStatus", {
          statusKey: "e-cost",
          statusText: `${bold("$0.42")} ${italic("today")} ${strike("$0.90")}`,
        });
        agent.request("setStatus", {
          statusKey: "f-docs",
          statusText: link("https://www.npmjs.com/package/@mariozechner/pi-coding-agent", "pi docs"),
        });
      },
    }),
    story({
      name: "Long text (ellipsis)",
      knobs: {
        text: {
          type: "text",
          value:
            "Indexing\trepository:\n 12,345 files,   3 languages, this status is deliberately long so that it does not fit on one line at all",
        },
        wrap: { type: "boolean", value: false },
      },
      render: ({ session }, args) => html`<pi-status-bar .session=${session} ?wrap=${args.wrap}></pi-status-bar>`,
      play: (agent, args) => {
        agent.request("setStatus", { statusKey: "index", statusText: args.text });
        agent.request("setStatus", { statusKey: "model", statusText: accent("claude-sonnet") });
      },
    }),
    story({
      name: "2,000-status burst",
      description: "2,000 setStatus messages back to back: the bar renders once or twice, not 2,000 times.",
      knobs: { count: { type: "number", value: 2000, min: 1, max: 20000 } },
      render: ({ session }) => html`<pi-status-bar .session=${session}></pi-status-bar>`,
      play: (agent, args) => {
        for (let i = 1; i <= args.count; i++)
          agent.request("setStatus", { statusKey: "burst", statusText: `burst ${i}/${args.count}` });
      },
    }),
    story({
      name: "CJK, emoji, markup",
      knobs: {},
      render: ({ session }) => html`<pi-status-bar .session=${session}></pi-status-bar>`,
      play: (agent) => {
        agent.request("setStatus", { statusKey: "1", statusText: "コンパイル中… 编译中 🔧" });
        agent.request("setStatus", { statusKey: "2", statusText: MARKUP });
      },
    }),
  ],
};

export const widgetStories: StoryModule = {
  id: "widget-slot",
  title: "pi-widget-slot",
  description: "ctx.ui.setWidget: widgets above or below the editor, 10 lines each before they fold, ANSI rendered.",
  stories: [
    story({
      name: "Above and below",
      knobs: {
        lines: {
          type: "text",
          multiline: true,
          ansi: true,
          value: `${accent("Plan")}\n\nstep 1: done\nstep 2: ${warning("pending")}`,
        },
        placement: { type: "choice", value: "aboveEditor", options: ["aboveEditor", "belowEditor"] },
      },
      render: ({ session }) => html`
        <pi-widget-slot .session=${session} placement="aboveEditor"></pi-widget-slot>
        <pi-prompt .session=${session}></pi-prompt>
        <pi-widget-slot .session=${session} placement="belowEditor"></pi-widget-slot>`,
      play: (agent, args) => {
        agent.request("setWidget", {
          widgetKey: "intro",
          widgetLines: [success("pi-elements"), "Widgets keep pi's order."],
        });
        agent.request("setWidget", {
          widgetKey: "plan",
          widgetLines: lines(args.lines),
          widgetPlacement: args.placement,
        });
      },
    }),
    story({
      name: "Over 10 lines (folds)",
      knobs: { count: { type: "number", value: 14, min: 1, max: 200 } },
      render: ({ session }) => html`<pi-widget-slot .session=${session}></pi-widget-slot>`,
      play: (agent, args) =>
        agent.request("setWidget", {
          widgetKey: "log",
          widgetLines: Array.from({ length: args.count }, (_, i) =>
            i % 4 === 0 ? accent(`line ${i + 1}`) : `line ${i + 1}`,
          ),
        }),
    }),
    story({
      name: "Long lines wrap; markup stays text",
      knobs: {},
      render: ({ session }) => html`<pi-widget-slot .session=${session}></pi-widget-slot>`,
      play: (agent) =>
        agent.request("setWidget", {
          widgetKey: "wrap",
          widgetLines: [
            `${"A long line that keeps going ".repeat(8)}end.`,
            "長い行も折り返します。长行也会自动换行。".repeat(6),
            MARKUP,
          ],
        }),
    }),
  ],
};

export const notificationStories: StoryModule = {
  id: "notifications",
  title: "pi-notifications",
  description: "ctx.ui.notify: toasts. Info and warning dismiss themselves (paused on hover and focus); errors stay.",
  stories: [
    story({
      name: "Info, warning, error",
      knobs: { message: { type: "text", value: "Build finished in 3.2 s" } },
      render: ({ session }) => html`<pi-notifications .session=${session}></pi-notifications>`,
      play: (agent, args) => {
        agent.request("notify", { message: args.message, notifyType: "info" });
        agent.request("notify", { message: "2 tests are slow", notifyType: "warning" });
        agent.request("notify", { message: "Could not reach the registry", notifyType: "error" });
      },
    }),
    story({
      name: "Many (+N more)",
      knobs: { count: { type: "number", value: 40, min: 1, max: 10000 } },
      render: ({ session }) => html`<pi-notifications .session=${session}></pi-notifications>`,
      play: (agent, args) => {
        for (let i = 1; i <= args.count; i++)
          agent.request("notify", { message: `Notification ${i}`, notifyType: i % 7 === 0 ? "error" : "info" });
      },
    }),
    story({
      name: "Failures: a command, an extension",
      description:
        "Errors the session reports itself name where they came from. This agent refuses prompts: send one to see it.",
      knobs: {},
      render: ({ session }) => html`<pi-notifications .session=${session}></pi-notifications>
        <pi-prompt .session=${session} style="margin-block-start: 1rem"></pi-prompt>`,
      play: (agent) => {
        agent.refusals = { prompt: "Agent is busy" };
        agent.raw({
          type: "extension_error",
          extensionPath: "/home/me/.pi/agent/extensions/permission-gate.ts",
          event: "tool_call",
          error: "TypeError: Cannot read properties of undefined (reading 'command')",
        });
        agent.raw({ type: "extension_error", error: "An extension failed." });
      },
    }),
    story({
      name: "CJK and markup",
      knobs: {},
      render: ({ session }) => html`<pi-notifications .session=${session}></pi-notifications>`,
      play: (agent) => {
        agent.request("notify", { message: "テストがすべて成功しました 🎉", notifyType: "info" });
        agent.request("notify", { message: "构建失败：找不到模块", notifyType: "error" });
        agent.request("notify", { message: MARKUP, notifyType: "warning" });
      },
    }),
  ],
};

/** The pi-prompt each completion story rendered, for its play to type into. */
const prompts = new WeakMap<StoryAgent, PiPrompt>();

/** Types `text` into a pi-prompt as a keyboard does: focus, the text at the caret, one input event. */
async function typeInto(prompt: PiPrompt, text: string): Promise<void> {
  await prompt.updateComplete;
  const field = prompt.shadowRoot?.querySelector("textarea");
  if (!field) return;
  field.focus();
  field.setRangeText(text, field.selectionStart, field.selectionEnd, "end");
  field.dispatchEvent(new InputEvent("input", { bubbles: true, composed: true, inputType: "insertText", data: text }));
}

export const promptStories: StoryModule = {
  id: "prompt",
  title: "pi-prompt",
  description: "The input editor: Enter sends prompt; while the agent streams, steer or follow_up; Esc aborts.",
  stories: [
    story({
      name: "Idle",
      knobs: {},
      render: ({ session }) => html`<pi-prompt .session=${session}></pi-prompt>`,
    }),
    story({
      name: "Filled by set_editor_text",
      knobs: {
        text: { type: "text", multiline: true, value: "こんにちは、pi。\u2028你好！ Please review src/parser.ts" },
      },
      render: ({ session }) => html`<pi-prompt .session=${session}></pi-prompt>`,
      play: (agent, args) => agent.request("set_editor_text", { text: args.text }),
    }),
    story({
      name: "Slash-command completion",
      description:
        "The story types / in the box, as you would: pi's commands (get_commands: extension commands, prompt templates, skills) open above it. Up/Down, Tab or Enter, a click; Esc closes.",
      knobs: {},
      render: ({ session, agent }) =>
        html`<div style="padding-block-start: 14rem"><pi-prompt .session=${session} ${ref((element) => {
          if (element) prompts.set(agent, element as PiPrompt);
        })}></pi-prompt></div>`,
      play: async (agent) => {
        agent.commands = [
          { name: "pick", description: "select: choose one of a few options", source: "extension" },
          { name: "pick-long", description: "select: 500 options, with type-ahead and a filter", source: "extension" },
          { name: "gate", description: "confirm: a permission gate that times out after 10 s", source: "extension" },
          { name: "review", description: "Review the staged changes", source: "prompt", argumentHint: "<focus>" },
          { name: "skill:pdf", description: "Read and summarize PDF files", source: "skill" },
        ];
        const prompt = prompts.get(agent);
        if (prompt) await typeInto(prompt, "/");
      },
    }),
    story({
      name: "While the agent streams",
      description: "After agent_start, Enter sends steer (Alt+Enter follow_up) and Esc sends abort.",
      knobs: {},
      render: ({ session }) => html`<pi-prompt .session=${session}></pi-prompt>`,
      play: (agent) => agent.raw({ type: "agent_start" }),
    }),
    story({
      name: "Queued messages (pi 1.x: take back)",
      description:
        "pi's queues from queue_update, steering first. Take back returns a message to the box (clear_queue, then the others queued again); Esc or Stop sends clear_queue, then abort, and the queued text comes back.",
      knobs: {
        steering: { type: "text", value: "Use the staging database, not production." },
        followUp: { type: "text", value: "Then write the changelog entry." },
      },
      render: ({ session }) => html`<pi-prompt .session=${session}></pi-prompt>`,
      play: (agent, args) => {
        // pi 1.x answers get_available_thinking_levels (0.73.1 has no such command): the prompt offers take back.
        agent.answers = {
          get_available_thinking_levels: { levels: ["off", "low", "medium", "high"] },
          clear_queue: { steering: [args.steering], followUp: [args.followUp] },
        };
        conversationOf(agent.session);
        agent.raw({ type: "agent_start" });
        agent.raw({ type: "queue_update", steering: [args.steering], followUp: [args.followUp] });
      },
    }),
    story({
      name: "Queued messages (pi 0.73.1)",
      description:
        "0.73.1 has no clear_queue: queued messages cannot be taken back, and Stop sends abort only (pi keeps them for the next message).",
      knobs: {},
      render: ({ session }) => html`<pi-prompt .session=${session}></pi-prompt>`,
      play: (agent) => {
        agent.refusals = { get_available_thinking_levels: "Unknown command: get_available_thinking_levels" };
        conversationOf(agent.session);
        agent.raw({ type: "agent_start" });
        agent.raw({ type: "queue_update", steering: ["キューに入ったメッセージ"], followUp: ["排队的后续消息"] });
      },
    }),
    story({
      name: "Retrying (2 of 3)",
      description:
        "auto_retry_start: the status says which attempt. (Pasted or dropped images, 5 MB each and 8 at most by default, wait as thumbnails and go to pi as images with the next message: see pi-prompt's tests.)",
      knobs: {
        attempt: { type: "number", value: 2, min: 1, max: 10 },
        maxAttempts: { type: "number", value: 3, min: 1, max: 10 },
      },
      render: ({ session }) => html`<pi-prompt .session=${session}></pi-prompt>`,
      play: (agent, args) => {
        conversationOf(agent.session);
        agent.raw({ type: "agent_start" });
        agent.raw({
          type: "auto_retry_start",
          attempt: args.attempt,
          maxAttempts: args.maxAttempts,
          delayMs: 2000,
          errorMessage: "overloaded_error: the provider is busy",
        });
      },
    }),
  ],
};
