/** Stories for the four dialogs, each shown by pi-extension-ui the way a real request arrives. */
import { html } from "lit";
import { type StoryContext, type StoryModule, story } from "../story.js";
import { accent, bold, lines, MARKUP, timeoutOf, warning } from "./text.js";

const host = ({ session }: StoryContext) => html`<pi-extension-ui .session=${session}></pi-extension-ui>`;
const modalHost = ({ session }: StoryContext) =>
  html`<pi-extension-ui .session=${session} modal></pi-extension-ui>
    <p>The dialog opens in the top layer; the page behind it is inert.</p>`;

export const selectStories: StoryModule = {
  id: "select",
  title: "pi-select",
  description:
    "ctx.ui.select: one choice among options. Up/Down or k/j, Home/End, PageUp/PageDown, type-ahead, Enter, Esc.",
  stories: [
    story({
      name: "Plain",
      knobs: {
        title: { type: "text", value: "Deploy to which environment?" },
        options: { type: "text", multiline: true, value: "staging\nproduction\npreview-42\nlocal" },
        timeoutSeconds: { type: "number", value: 0, min: 0 },
      },
      render: host,
      play: (agent, args) =>
        agent.request("select", { title: args.title, options: lines(args.options), ...timeoutOf(args.timeoutSeconds) }),
    }),
    story({
      name: "Countdown",
      description: "A timed select: the title counts down and the dialog cancels itself at zero, as pi does.",
      knobs: { timeoutSeconds: { type: "number", value: 15, min: 1 } },
      render: host,
      play: (agent, args) =>
        agent.request("select", {
          title: "Quick! Pick a colour",
          options: ["red", "green", "blue"],
          ...timeoutOf(args.timeoutSeconds),
        }),
    }),
    story({
      name: "Long list (500)",
      description: "500 options: a filter field appears, type-ahead works, the current option stays in view.",
      knobs: { count: { type: "number", value: 500, min: 0, max: 5000 } },
      render: host,
      play: (agent, args) => {
        const options = Array.from({ length: args.count }, (_, i) => `file-${String(i + 1).padStart(3, "0")}.ts`);
        options.splice(Math.min(7, options.length), 0, "日本語のファイル.ts", "中文文件.ts");
        agent.request("select", { title: "Open which file?", options });
      },
    }),
    story({
      name: "CJK and emoji",
      knobs: {
        title: { type: "text", value: "どのブランチにマージしますか？ 🚀" },
        options: {
          type: "text",
          multiline: true,
          value: "主分支 main\n開発ブランチ develop\n功能分支 feature/登录\n🧪 experiment",
        },
      },
      render: host,
      play: (agent, args) => agent.request("select", { title: args.title, options: lines(args.options) }),
    }),
    story({
      name: "Markup in text",
      description: "Titles and options are text: the markup below is shown, never run.",
      knobs: {},
      render: host,
      play: (agent) => agent.request("select", { title: MARKUP, options: [MARKUP, "<i>plain</i>"] }),
    }),
    story({
      name: "Colours and line breaks",
      description:
        "Extensions colour their text with theme.fg (ANSI): a multi-line title keeps its line breaks, as permission-gate's does; each option stays one line.",
      knobs: {},
      render: host,
      play: (agent) =>
        agent.request("select", {
          title: `${warning("⚠️ Dangerous command:")}\n\n  ${bold("rm -rf build/")}\n\nAllow?`,
          options: [accent("Yes"), "No", `${warning("Always allow")}\nfor this session`],
        }),
    }),
    story({
      name: "Empty list",
      knobs: {},
      render: host,
      play: (agent) => agent.request("select", { title: "Nothing to choose from", options: [] }),
    }),
    story({
      name: "Modal",
      knobs: {},
      render: modalHost,
      play: (agent) => agent.request("select", { title: "Allow the command?", options: ["Allow", "Block"] }),
    }),
  ],
};

export const confirmStories: StoryModule = {
  id: "confirm",
  title: "pi-confirm",
  description: "ctx.ui.confirm: an alertdialog with Yes / No (localized). Esc answers cancelled.",
  stories: [
    story({
      name: "Plain",
      knobs: {
        title: { type: "text", value: "Clear session?" },
        message: { type: "text", multiline: true, value: "All messages will be lost." },
        timeoutSeconds: { type: "number", value: 0, min: 0 },
      },
      render: host,
      play: (agent, args) =>
        agent.request("confirm", { title: args.title, message: args.message, ...timeoutOf(args.timeoutSeconds) }),
    }),
    story({
      name: "Permission gate (countdown)",
      knobs: { timeoutSeconds: { type: "number", value: 10, min: 1 } },
      render: host,
      play: (agent, args) =>
        agent.request("confirm", {
          title: "Allow this command?",
          message: "rm -rf build/\n\nIt deletes the build folder.",
          ...timeoutOf(args.timeoutSeconds),
        }),
    }),
    story({
      name: "Japanese and Chinese",
      knobs: {},
      render: host,
      play: (agent) =>
        agent.request("confirm", {
          title: "変更を破棄しますか？",
          message: "未保存の変更は失われます。\n未保存的更改将会丢失。",
        }),
    }),
    story({
      name: "Markup in text",
      knobs: {},
      render: host,
      play: (agent) => agent.request("confirm", { title: MARKUP, message: MARKUP }),
    }),
    story({
      name: "Modal",
      knobs: {},
      render: modalHost,
      play: (agent) => agent.request("confirm", { title: "Push to main?", message: "3 commits will be pushed." }),
    }),
  ],
};

export const inputStories: StoryModule = {
  id: "input",
  title: "pi-input",
  description: "ctx.ui.input: one line. The placeholder is shown; Enter submits, even empty; Esc cancels.",
  stories: [
    story({
      name: "Plain",
      knobs: {
        title: { type: "text", value: "Name the new branch" },
        placeholder: { type: "text", value: "feature/…" },
        timeoutSeconds: { type: "number", value: 0, min: 0 },
      },
      render: host,
      play: (agent, args) =>
        agent.request("input", { title: args.title, placeholder: args.placeholder, ...timeoutOf(args.timeoutSeconds) }),
    }),
    story({
      name: "Countdown",
      knobs: { timeoutSeconds: { type: "number", value: 20, min: 1 } },
      render: host,
      play: (agent, args) =>
        agent.request("input", { title: "Commit message?", placeholder: "fix: …", ...timeoutOf(args.timeoutSeconds) }),
    }),
    story({
      name: "IME (Japanese)",
      description: "Type with a Japanese or Chinese IME: Enter that commits a composition never submits.",
      knobs: {},
      render: host,
      play: (agent) => agent.request("input", { title: "名前を入力してください", placeholder: "例：山田太郎" }),
    }),
    story({
      name: "Markup in text",
      knobs: {},
      render: host,
      play: (agent) => agent.request("input", { title: MARKUP, placeholder: MARKUP }),
    }),
  ],
};

export const editorStories: StoryModule = {
  id: "editor",
  title: "pi-editor",
  description: "ctx.ui.editor: multi-line text with a prefill. Enter submits, Shift+Enter inserts a newline.",
  stories: [
    story({
      name: "Plain",
      knobs: {
        title: { type: "text", value: "Edit the commit message" },
        prefill: { type: "text", multiline: true, value: "Fix the parser\n\n- handles U+2028\n- 日本語と中文も\n" },
      },
      render: host,
      play: (agent, args) => agent.request("editor", { title: args.title, prefill: args.prefill }),
    }),
    story({
      name: "Exact text (U+2028, tabs, emoji)",
      description: "The answer is the text exactly as edited: look at the JSON sent.",
      knobs: {},
      render: host,
      play: (agent) => agent.request("editor", { title: "Exact text", prefill: "a\u2028b\tc 🎉\n中文\n\n" }),
    }),
    story({
      name: "Markup in text",
      knobs: {},
      render: host,
      play: (agent) => agent.request("editor", { title: MARKUP, prefill: MARKUP }),
    }),
  ],
};

export const queueStories: StoryModule = {
  id: "extension-ui",
  title: "pi-extension-ui",
  description:
    "The all-in-one host: one pending dialog at a time, above the prompt (which stays usable) or modal; a queue bar moves between them and shows a timed dialog waiting behind the one shown.",
  stories: [
    story({
      name: "Three pending dialogs",
      knobs: { modal: { type: "boolean", value: false } },
      render: ({ session }, args) =>
        html`<pi-extension-ui .session=${session} ?modal=${args.modal}><pi-prompt .session=${session}></pi-prompt></pi-extension-ui>`,
      play: (agent) => {
        agent.request("confirm", { title: "First of three", message: "Answer me, then the next one shows." });
        agent.request("input", { title: "Second of three", placeholder: "anything" });
        agent.request("select", { title: "Third of three", options: ["a", "b", "c"] });
      },
    }),
    story({
      name: "A timed dialog waiting behind another",
      description:
        "timed-confirm's case: a confirm pi gave up on stays on screen, and a timed select arrives behind it. The queue bar counts it down and brings it up with one click; Esc dismisses the stale one.",
      knobs: { timeoutSeconds: { type: "number", value: 30, min: 1 } },
      render: ({ session }) =>
        html`<pi-extension-ui .session=${session}><pi-prompt .session=${session}></pi-prompt></pi-extension-ui>`,
      play: async (agent, args) => {
        agent.request("confirm", { title: "Proceed with the deploy?", message: "pi stopped waiting for this one." });
        // The confirm is on screen before the timed select arrives.
        await new Promise((resolve) => setTimeout(resolve, 100));
        agent.request("select", {
          title: "Quick! Which region?",
          options: ["eu-west", "us-east"],
          timeout: args.timeoutSeconds * 1000,
        });
      },
    }),
    story({
      name: "Prompt when nothing is pending",
      knobs: {},
      render: ({ session }) =>
        html`<pi-extension-ui .session=${session}><pi-prompt .session=${session}></pi-prompt></pi-extension-ui>`,
      play: (agent) => agent.request("set_editor_text", { text: "こんにちは、pi。\u2028你好！" }),
    }),
  ],
};
