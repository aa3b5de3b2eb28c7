/**
 * Stories for the session controls (pi's footer and built-in commands): the model picker, the thinking level, the
 * usage line and the session actions, bound to a story agent that answers as pi does (the answer shapes of
 * test/fixtures/session-controls, recorded from real pi). `all.js` registers them (not the extension-UI bundle, which
 * stays as it is); the demo's main.ts and the workshop's preview import it.
 */
import { html } from "lit";
import { type StoryModule, story } from "../story.js";
import type { StoryAgent } from "../story-agent.js";

type Model = { provider: string; id: string; name: string; reasoning: boolean; contextWindow: number };

const model = (provider: string, id: string, name: string, reasoning: boolean, contextWindow: number): Model =>
  ({
    provider,
    id,
    name,
    api: "openai-completions",
    baseUrl: "http://127.0.0.1:0/v1",
    reasoning,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow,
    maxTokens: 8192,
  }) as Model;

const MODELS: readonly Model[] = [
  model("anthropic", "claude-sonnet-4-20250514", "Claude Sonnet 4", true, 200000),
  model("anthropic", "claude-3-5-haiku-latest", "Claude Haiku 3.5", false, 200000),
  model("openai", "gpt-5", "GPT-5", true, 400000),
  model("openai", "gpt-4o-mini", "GPT-4o mini", false, 128000),
  model("ollama", "qwen3:32b", "Qwen3 32B (ローカル)", true, 32768),
];

/** What a story changes in pi's answers. */
interface Situation {
  /** The model pi starts with (an index into MODELS). Default 0, a reasoning model. */
  model?: number;
  /** `get_session_stats` of a session with nothing in it yet. */
  fresh?: boolean;
  /** Right after a compaction: pi does not know the context use. */
  compacted?: boolean;
  /** Commands pi refuses, with its error text. */
  refusals?: Readonly<Record<string, string>>;
}

/** Makes the agent answer the controls' commands as pi `version` does, keeping the state they change. */
function answerAsPi(
  agent: StoryAgent,
  version: string,
  percent: number,
  streaming: boolean,
  situation: Situation = {},
): void {
  let current: Model = MODELS[situation.model ?? 0]!;
  let level = "medium";
  let name: string | undefined;
  const levels = () => (current.reasoning ? ["off", "minimal", "low", "medium", "high"] : ["off"]);
  agent.refusals = {
    ...(version === "0.73.1"
      ? { get_available_thinking_levels: "Unknown command: get_available_thinking_levels" }
      : {}),
    ...situation.refusals,
  };
  if (!current.reasoning) level = "off";
  agent.answers = {
    get_state: () => ({
      model: current,
      thinkingLevel: level,
      isStreaming: streaming,
      isCompacting: false,
      steeringMode: "one-at-a-time",
      followUpMode: "one-at-a-time",
      sessionId: "01a233ea-9a4d-7175-886e-082132188cc7",
      ...(name ? { sessionName: name } : {}),
      autoCompactionEnabled: true,
      messageCount: 6,
      pendingMessageCount: 0,
    }),
    get_messages: { messages: [] },
    get_available_models: { models: MODELS },
    get_available_thinking_levels: () => ({ levels: levels() }),
    get_session_stats: () =>
      situation.fresh
        ? {
            sessionId: "01a233ea-9a4d-7175-886e-082132188cc7",
            userMessages: 0,
            assistantMessages: 0,
            toolCalls: 0,
            toolResults: 0,
            totalMessages: 0,
            tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
            cost: 0,
            contextUsage: { tokens: 0, contextWindow: current.contextWindow, percent: 0 },
          }
        : {
            sessionId: "01a233ea-9a4d-7175-886e-082132188cc7",
            userMessages: 3,
            assistantMessages: 3,
            toolCalls: 4,
            toolResults: 4,
            totalMessages: 14,
            tokens: { input: 48210, output: 9120, cacheRead: 152000, cacheWrite: 4100, total: 213430 },
            cost: 0.4215,
            contextUsage: situation.compacted
              ? { tokens: null, contextWindow: current.contextWindow, percent: null }
              : {
                  tokens: Math.round((percent / 100) * current.contextWindow),
                  contextWindow: current.contextWindow,
                  percent,
                },
          },
    set_model: (command: Record<string, unknown>) => {
      current = MODELS.find((m) => m.provider === command["provider"] && m.id === command["modelId"]) ?? current;
      if (!current.reasoning) level = "off";
      return current;
    },
    set_thinking_level: (command: Record<string, unknown>) => {
      level = levels().includes(String(command["level"])) ? String(command["level"]) : "off";
      return undefined;
    },
    set_session_name: (command: Record<string, unknown>) => {
      name = String(command["name"]).trim();
      return undefined;
    },
    get_fork_messages: {
      messages: [
        { entryId: "a1f0c2d3", text: "Read the README and list the packages." },
        { entryId: "b2e1d3c4", text: "Add a test for the <pi-model-picker> filter." },
        { entryId: "c3d2e4f5", text: "日本語のメッセージ: もう一度試してください。" },
      ],
    },
    fork: (command: Record<string, unknown>) => ({ text: String(command["entryId"]), cancelled: false }),
    new_session: { cancelled: false },
    compact: { summary: "Summary of the conversation so far.", firstKeptEntryId: "c3d2e4f5", tokensBefore: 48210 },
    export_html: { path: "/home/user/.pi/agent/sessions/2026-12-02-session.html" },
  };
}

const knobs = {
  pi: { type: "choice", value: "1.6.0", options: ["1.6.0", "0.73.1"] },
  contextPercent: { type: "number", value: 42, min: 0, max: 100, step: 1 },
  streaming: { type: "boolean", value: false },
} as const;

export const sessionControlsStories: StoryModule = {
  id: "session-controls",
  title: "Session controls",
  description:
    "pi's footer and built-in commands: pi-model-picker, pi-thinking-level, pi-session-stats, pi-session-actions. Each alone or together; each sends pi's command and the conversation store refreshes from pi's answers.",
  stories: [
    story({
      name: "Footer",
      description: "The four controls together, as pi's footer: model, thinking level, usage, actions.",
      knobs,
      render: ({ session, agent }, args) => {
        answerAsPi(agent, args.pi, args.contextPercent, args.streaming);
        return html`<div style="display: grid; gap: 0.5rem; padding: 0.5rem; background: Canvas; color: CanvasText">
          <div style="display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: center">
            <pi-model-picker .session=${session}></pi-model-picker>
            <pi-thinking-level .session=${session}></pi-thinking-level>
          </div>
          <pi-session-stats .session=${session}></pi-session-stats>
          <pi-session-actions .session=${session}></pi-session-actions>
        </div>`;
      },
      play: (agent, args) => {
        if (args.streaming) agent.raw({ type: "agent_start" });
      },
    }),
    story({
      name: "While pi works, context nearly full",
      description:
        "pi streams: new session, compact and fork wait, with the reason shown; the context is past pi's 90 % error mark.",
      knobs: {
        ...knobs,
        contextPercent: { ...knobs.contextPercent, value: 93 },
        streaming: { type: "boolean", value: true },
      },
      render: ({ session, agent }, args) => {
        answerAsPi(agent, args.pi, args.contextPercent, args.streaming);
        return html`<div style="display: grid; gap: 0.5rem; padding: 0.5rem; background: Canvas; color: CanvasText">
          <pi-session-stats .session=${session}></pi-session-stats>
          <pi-session-actions .session=${session}></pi-session-actions>
        </div>`;
      },
      play: (agent, args) => {
        if (args.streaming) agent.raw({ type: "agent_start" });
      },
    }),
    story({
      name: "A model that does not reason",
      description:
        "pi-model-picker and pi-thinking-level on Claude Haiku 3.5: the only level is off, so the select is disabled and says why. Pick a reasoning model to enable it.",
      knobs,
      render: ({ session, agent }, args) => {
        answerAsPi(agent, args.pi, args.contextPercent, args.streaming, { model: 1 });
        return html`<div style="display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: center; padding: 0.5rem; background: Canvas; color: CanvasText">
          <pi-model-picker .session=${session}></pi-model-picker>
          <pi-thinking-level .session=${session}></pi-thinking-level>
        </div>`;
      },
    }),
    story({
      name: "A fresh session",
      description:
        "pi-session-stats before the first turn: no tokens, no cost, the context empty (pi leaves zero parts out).",
      knobs: { ...knobs, contextPercent: { ...knobs.contextPercent, value: 0 } },
      render: ({ session, agent }, args) => {
        answerAsPi(agent, args.pi, args.contextPercent, args.streaming, { fresh: true });
        return html`<div style="padding: 0.5rem; background: Canvas; color: CanvasText"><pi-session-stats .session=${session}></pi-session-stats></div>`;
      },
    }),
    story({
      name: "Just compacted",
      description:
        "Right after a compaction pi does not know the context use: the context part shows ?/window, as pi does.",
      knobs,
      render: ({ session, agent }, args) => {
        answerAsPi(agent, args.pi, args.contextPercent, args.streaming, { compacted: true });
        return html`<div style="padding: 0.5rem; background: Canvas; color: CanvasText"><pi-session-stats .session=${session}></pi-session-stats></div>`;
      },
    }),
    story({
      name: "pi refuses",
      description:
        "pi answers with an error: the model list cannot be had (the picker says so in words); choosing a level, naming, forking and exporting are refused too (try them: each error shows beside its control).",
      knobs,
      render: ({ session, agent }, args) => {
        answerAsPi(agent, args.pi, args.contextPercent, args.streaming, {
          refusals: {
            get_available_models: "No API key found for any provider",
            set_thinking_level: "Thinking level is locked by the project settings",
            set_session_name: "Session name is read-only",
            get_fork_messages: "Nothing to fork from yet",
            export_html: "EACCES: permission denied, open '/home/user/.pi/agent/sessions/export.html'",
          },
        });
        return html`<div style="display: grid; gap: 0.5rem; padding: 0.5rem; background: Canvas; color: CanvasText">
          <div style="display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: center">
            <pi-model-picker .session=${session}></pi-model-picker>
            <pi-thinking-level .session=${session}></pi-thinking-level>
          </div>
          <pi-session-actions .session=${session}></pi-session-actions>
        </div>`;
      },
    }),
  ],
};
