/**
 * The showcase: slash commands that exercise every extension-UI method, written once against the subset of pi's
 * `ctx.ui` they use. The live page runs them inside a real pi (pi-extension.ts adapts `ctx.ui`); the playground
 * runs them inside the page, in a simulated agent that speaks the same protocol over the in-memory transport.
 * Each dialog's result is reported back with `notify`, so what the agent received is visible.
 */

export type Color = "accent" | "success" | "warning" | "error" | "muted" | "dim";
export interface DialogOptions {
  timeout?: number;
}
/** The part of pi's ExtensionUIContext the showcase uses. */
export interface ShowcaseUi {
  select(title: string, options: string[], opts?: DialogOptions): Promise<string | undefined>;
  confirm(title: string, message: string, opts?: DialogOptions): Promise<boolean>;
  input(title: string, placeholder?: string, opts?: DialogOptions): Promise<string | undefined>;
  editor(title: string, prefill?: string): Promise<string | undefined>;
  notify(message: string, type?: "info" | "warning" | "error"): void;
  setStatus(key: string, text: string | undefined): void;
  setWidget(key: string, lines: string[] | undefined, opts?: { placement?: "aboveEditor" | "belowEditor" }): void;
  setTitle(title: string): void;
  setEditorText(text: string): void;
  /** pi's `theme.fg`: colours text with ANSI escapes. */
  fg(color: Color, text: string): string;
}

export interface ShowcaseCommand {
  description: string;
  run(ui: ShowcaseUi, args: string): Promise<void>;
}

const show = (value: unknown) => (value === undefined ? "(cancelled)" : JSON.stringify(value));
const MARKUP = `<img src=x onerror="alert('injected')"><b>bold?</b>`;

/** The page title the showcase sets when its session starts (and /clear sets again). */
const TITLE = "pi-elements showcase";
/** What the commands set (not what the session's start sets): /clear takes all of it away. */
const COMMAND_STATUSES = ["2-branch", "3-tests", "4-lint", "5-cost", "burst", "9-markup"];
const COMMAND_WIDGETS = ["plan", "markup"];

export function onSessionStart(ui: ShowcaseUi): void {
  ui.setTitle(TITLE);
  ui.setWidget("showcase", [
    ui.fg("accent", "pi-elements showcase"),
    `Type ${ui.fg("accent", "/")} to see the commands, e.g. ${ui.fg("accent", "/pick")} or ${ui.fg("accent", "/gate")}.`,
  ]);
  ui.setStatus("0-agent", ui.fg("success", "● ready"));
  ui.setStatus("1-model", ui.fg("muted", "extension commands need no model"));
}

export const commands: Record<string, ShowcaseCommand> = {
  pick: {
    description: "select: choose one of a few options",
    async run(ui) {
      const choice = await ui.select("Deploy to which environment?", ["staging", "production", "preview-42", "local"]);
      ui.notify(`select answered ${show(choice)}`, "info");
    },
  },
  "pick-long": {
    description: "select: 500 options, with type-ahead and a filter",
    async run(ui) {
      const options = Array.from({ length: 500 }, (_, i) => `file-${String(i + 1).padStart(3, "0")}.ts`);
      options.splice(7, 0, "日本語のファイル.ts", "中文文件.ts");
      const choice = await ui.select("Open which file?", options);
      ui.notify(`select answered ${show(choice)}`, "info");
    },
  },
  gate: {
    description: "confirm: a permission gate that times out after 10 s",
    async run(ui) {
      const ok = await ui.confirm("Allow this command?", "rm -rf build/\n\nIt deletes the build folder.", {
        timeout: 10_000,
      });
      ui.notify(`confirm answered ${show(ok)}`, ok ? "info" : "warning");
    },
  },
  ask: {
    description: "input: one line, with a placeholder",
    async run(ui) {
      const name = await ui.input("Name the new branch", "feature/…");
      ui.notify(`input answered ${show(name)}`, "info");
    },
  },
  write: {
    description: "editor: multi-line text with a prefill",
    async run(ui) {
      const text = await ui.editor("Edit the commit message", "Fix the parser\n\n- handles U+2028\n- 日本語と中文も\n");
      ui.notify(`editor answered ${show(text)}`, "info");
    },
  },
  timed: {
    description: "select that closes itself after 5 s",
    async run(ui) {
      const choice = await ui.select("Quick! Pick a colour", ["red", "green", "blue"], { timeout: 5_000 });
      ui.notify(`timed select answered ${show(choice)}`, choice === undefined ? "warning" : "info");
    },
  },
  two: {
    description: "two dialogs pending at once",
    async run(ui) {
      const [a, b] = await Promise.all([
        ui.confirm("First of two", "Both dialogs were sent back to back."),
        ui.input("Second of two", "anything"),
      ]);
      ui.notify(`two answered ${show([a, b])}`, "info");
    },
  },
  status: {
    description: "setStatus: styled status entries",
    async run(ui) {
      ui.setStatus("2-branch", `${ui.fg("accent", "⎇ main")} ${ui.fg("muted", "+3 ~1")}`);
      ui.setStatus("3-tests", ui.fg("success", "✓ 128 passed"));
      ui.setStatus("4-lint", ui.fg("warning", "⚠ 2 warnings"));
      ui.setStatus("5-cost", "\u001b[1m$0.42\u001b[22m \u001b[3mtoday\u001b[23m");
    },
  },
  widget: {
    description: "setWidget: a styled widget of 14 lines (10 shown, then expandable)",
    async run(ui) {
      const lines = Array.from({ length: 14 }, (_, i) =>
        i % 3 === 0 ? ui.fg("accent", `step ${i + 1}: done`) : `step ${i + 1}: ${ui.fg("muted", "pending")}`,
      );
      ui.setWidget("plan", [ui.fg("warning", "Plan"), "", ...lines]);
    },
  },
  "widget-below": {
    description: "moves the plan widget below the editor",
    async run(ui) {
      ui.setWidget("plan", [ui.fg("warning", "Plan (moved below)"), "step 1: done"], { placement: "belowEditor" });
    },
  },
  clear: {
    description: "clears what the other commands set: statuses, widgets and the title",
    async run(ui) {
      for (const key of COMMAND_STATUSES) ui.setStatus(key, undefined);
      for (const key of COMMAND_WIDGETS) ui.setWidget(key, undefined);
      ui.setTitle(TITLE);
    },
  },
  burst: {
    description: "2,000 setStatus calls in one go",
    async run(ui) {
      for (let i = 1; i <= 2000; i++) ui.setStatus("burst", `burst ${i}/2000`);
    },
  },
  notify: {
    description: "notify: info, warning and error",
    async run(ui) {
      ui.notify("Build finished in 3.2 s", "info");
      ui.notify("2 tests are slow", "warning");
      ui.notify("Could not reach the registry", "error");
    },
  },
  markup: {
    description: "markup in every text: shown as text, never run",
    async run(ui) {
      ui.setTitle(`${MARKUP} title`);
      ui.setStatus("9-markup", MARKUP);
      ui.setWidget("markup", [MARKUP, "<script>alert(1)</script>"]);
      ui.notify(MARKUP, "warning");
      const answer = await ui.select(MARKUP, [MARKUP, "<i>plain</i>"]);
      ui.notify(`markup select answered ${show(answer)}`, "info");
    },
  },
  prefill: {
    description: "set_editor_text: fills the prompt (CJK and U+2028)",
    async run(ui) {
      ui.setEditorText("こんにちは、pi。\u2028你好！ Please review src/parser.ts");
    },
  },
};
