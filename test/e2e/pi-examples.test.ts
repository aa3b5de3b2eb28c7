/**
 * pi's own example extensions as a conformance suite. Each example that uses `ctx.ui` and can run here is loaded
 * into a real pi of each version under test, behind the real bridge, with the README's no-build page (the single-file
 * bundle) in a browser. A case triggers the example as a user would (a slash command typed in pi-prompt, a prompt
 * that makes the scripted model call a tool, `new_session` / `fork` from a second client), checks what the user sees
 * (dialog titles and options, toasts, status, widgets, document.title), acts with the keyboard or mouse, and reads
 * back what pi received and did: its own notifications, files in its working directory, the tool results it sent
 * to the model, its responses.
 *
 * Examples that share a pi process do not react to the same trigger. Examples whose UI pi does not carry over RPC
 * (`ctx.ui.custom()`, setFooter, setHeader, setEditorComponent, setWorkingIndicator, setTheme, ...) are checked for
 * what the page shows instead: pi's own message if it sends one, otherwise nothing, and the session stays usable.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Rec } from "../../packages/bridge/test/support/harness.js";
import { dialogsArmed } from "../support/armed.js";
import {
  closeBrowser,
  type ExampleSession,
  ExampleUser,
  shownText,
  startExampleSession,
} from "../support/example-page.js";
import { PI_VERSIONS, type PiVersion } from "../support/real-pi.js";
import { type ScriptedModel, type ScriptedReply, startScriptedModel } from "../support/scripted-model.js";

interface CaseContext {
  readonly user: ExampleUser;
  readonly model: ScriptedModel;
  readonly pi: PiVersion;
  /** pi's working directory, where its tools act. */
  readonly cwd: string;
}

interface ExampleCase {
  /** Starts with the example's name (and command), then what a user sees and does. */
  readonly name: string;
  /** Only for these versions (the example behaves differently in the others, see their cases). */
  readonly versions?: readonly string[];
  readonly run: (context: CaseContext) => Promise<void>;
}

interface ExampleGroup {
  readonly name: string;
  /** Loaded into one pi, each with its own -e; they do not react to the same triggers. */
  readonly examples: readonly string[] | ((pi: PiVersion) => readonly string[]);
  /** Only for these versions (an example one of them does not ship). */
  readonly versions?: readonly string[];
  readonly prepare?: (cwd: string) => void;
  readonly cases: readonly ExampleCase[];
}

const isAssistantEnd = (r: Rec) => r.type === "message_end" && (r.message as { role?: string }).role === "assistant";

/** The text of the tool results pi sent to the model in its latest request. */
function lastToolResults(model: ScriptedModel): string {
  const request = model.requests.at(-1);
  const messages = request?.messages ?? [];
  const lastCall = messages.map((m) => m.role).lastIndexOf("assistant");
  return JSON.stringify(
    messages
      .slice(lastCall + 1)
      .filter((m) => m.role === "tool")
      .map((m) => m.content),
  );
}

/** Adds a model of the same scripted provider to pi's models.json. */
function addModel(path: string, id: string): void {
  const config = JSON.parse(readFileSync(path, "utf8")) as { providers: Record<string, { models: unknown[] }> };
  for (const provider of Object.values(config.providers))
    provider.models.push({ id, name: id, contextWindow: 128000, maxTokens: 4096 });
  writeFileSync(path, JSON.stringify(config));
}

/**
 * Makes the scripted model answer the next requests with `replies`, in order, and any request after them with a
 * plain text (so a retry or an extra turn pi decides on ends the run rather than failing it).
 */
function script(model: ScriptedModel, ...replies: ScriptedReply[]): void {
  model.setScript((_request, index) => replies[index] ?? { text: "Nothing more to do." });
}

/** A slash command typed in the page whose result is one notify: the page shows pi's message as a toast. */
async function commandToasts(user: ExampleUser, command: string, message: string | RegExp): Promise<Rec> {
  const from = user.mark();
  await user.type(command);
  const notify = await user.notified(message, from);
  await user.toast(String(notify.message));
  return notify;
}

/**
 * A slash command whose UI pi cannot carry over RPC: pi accepts it and sends the page nothing to show (no dialog,
 * no toast), and the session stays usable: the next command works.
 */
async function commandShowsNothing(user: ExampleUser, command: string): Promise<void> {
  const from = user.mark();
  await user.type(command);
  const response = await user.record((r) => r.type === "response" && r.command === "prompt", from, "prompt response");
  assert.equal(response.success, true);
  const state = await user.command({ type: "get_state" });
  assert.equal(state.success, true);
  const uiRequests = user.session.client.records.slice(from).filter((r) => r.type === "extension_ui_request");
  assert.deepEqual(uiRequests, [], "pi sent the page nothing for it");
  const host = user.page.locator("pi-extension-ui");
  assert.equal(await host.getByRole("dialog").or(host.getByRole("alertdialog")).count(), 0, "no dialog is shown");
  assert.equal(await user.page.locator("pi-prompt").getByRole("textbox").isEditable(), true);
}

/** A prompt answered by the model with `text`: the session is usable. */
async function modelAnswers(user: ExampleUser, model: ScriptedModel, text: string): Promise<void> {
  script(model, { text });
  const from = user.mark();
  await user.type("Say something");
  await user.agentEnd(from);
  const end = await user.record(isAssistantEnd, from, "the assistant's message");
  assert.match(JSON.stringify(end.message), new RegExp(text));
}

const GROUPS: readonly ExampleGroup[] = [
  {
    name: "dialogs and fire-and-forget calls from slash commands",
    examples: [
      "rpc-demo.ts",
      "widget-placement.ts",
      "timed-confirm.ts",
      "commands.ts",
      "session-name.ts",
      "input-transform.ts",
    ],
    cases: [
      {
        name: "rpc-demo and widget-placement at session_start: title, widgets above and below the prompt, status",
        async run({ user }) {
          const { page } = user;
          await page.waitForFunction(() => document.title === "pi RPC Demo");
          const above = page.locator('pi-widget-slot[placement="aboveEditor"]');
          const below = page.locator('pi-widget-slot[placement="belowEditor"]');
          await above.getByText("--- RPC Extension UI Demo ---").waitFor();
          await above.getByText("Loaded and ready.").waitFor();
          await above.getByText("Above editor widget").waitFor();
          await below.getByText("Below editor widget").waitFor();
          assert.equal(await below.getByText("Above editor widget").count(), 0);
          await page.locator("pi-status-bar").getByText("Turns: 0").waitFor();
        },
      },
      {
        name: "rpc-demo /rpc-input: an input dialog; the typed text reaches pi",
        async run({ user }) {
          await user.type("/rpc-input");
          const dialog = user.dialog("Enter a value");
          const box = dialog.getByRole("textbox");
          assert.equal(await box.getAttribute("placeholder"), "type something...");
          await box.fill("typed in the page");
          await dialogsArmed(user.page);
          await box.press("Enter");
          await user.notified("You entered: typed in the page");
          await user.toast("You entered: typed in the page");
          await dialog.waitFor({ state: "detached" });
        },
      },
      {
        name: "rpc-demo /rpc-editor: a multi-line editor with pi's prefill; a line added with Shift+Enter reaches pi",
        async run({ user }) {
          await user.type("/rpc-editor");
          const box = user.dialog("Edit some text").getByRole("textbox");
          assert.equal(await box.inputValue(), "Line 1\nLine 2\nLine 3");
          await dialogsArmed(user.page);
          await box.press("ControlOrMeta+End");
          await box.press("Shift+Enter");
          await box.pressSequentially("Line 4");
          await box.press("Enter");
          await commandResult(user, "Editor submitted (4 lines)");
        },
      },
      {
        name: "rpc-demo /rpc-editor: Escape cancels; pi hears the cancel",
        async run({ user }) {
          await user.type("/rpc-editor");
          await user.dialog("Edit some text").getByRole("textbox").press("Escape");
          await commandResult(user, "Editor cancelled");
        },
      },
      {
        name: "rpc-demo /rpc-prefill: set_editor_text fills pi-prompt",
        async run({ user }) {
          await commandToasts(user, "/rpc-prefill", "Editor prefilled");
          const prompt = user.page.locator("pi-prompt").getByRole("textbox");
          assert.equal(await prompt.inputValue(), "This text was set by the rpc-demo extension.");
          await prompt.fill("");
        },
      },
      {
        name: "rpc-demo session_before_switch: new_session asks to clear; No keeps the session, Yes starts a new one",
        async run({ user }) {
          const refused = user.command({ type: "new_session" });
          const dialog = user.dialog(/Clear session\?/);
          await dialog.getByText("All messages will be lost.").waitFor();
          await dialog.getByRole("button", { name: "No" }).click();
          assert.deepEqual((await refused).data, { cancelled: true });
          await user.toast("Clear cancelled");

          const accepted = user.command({ type: "new_session" });
          await user
            .dialog(/Clear session\?/)
            .getByRole("button", { name: "Yes" })
            .click();
          assert.deepEqual((await accepted).data, { cancelled: false });
          await user.page.waitForFunction(() => document.title === "pi RPC Demo (new session)");
        },
      },
      {
        name: "timed-confirm /timed: a confirm with a countdown; Yes reaches pi",
        async run({ user }) {
          await user.type("/timed");
          const dialog = user.dialog(/Timed Confirmation/);
          await dialog.getByText("This dialog will auto-cancel in 5 seconds. Confirm?").waitFor();
          // The countdown, as pi's terminal shows it: "Timed Confirmation (5s)".
          const heading = await shownText(dialog.getByRole("heading"));
          const seconds = /^Timed Confirmation \((\d+)s\)$/.exec(heading)?.[1];
          assert.ok(seconds !== undefined && Number(seconds) <= 5, heading);
          await dialog.getByRole("button", { name: "Yes" }).click();
          await commandResult(user, "Confirmed by user!");
        },
      },
      {
        name: "rpc-demo /rpc-input shown, timed-confirm /timed from another client behind it: the queue bar's countdown brings it up",
        async run({ user }) {
          await user.type("/rpc-input");
          const input = user.dialog("Enter a value");
          await input.getByRole("textbox").fill("kept while away");
          // Not awaited: pi answers a prompt once the command's handler is done, after the dialog.
          void user.command({ type: "prompt", message: "/timed" });
          await user.ui("confirm");
          const queue = user.page.locator("pi-extension-ui").getByRole("navigation");
          await queue.getByRole("button", { name: /Timed Confirmation/ }).click();
          await user
            .dialog(/Timed Confirmation/)
            .getByRole("button", { name: "Yes" })
            .click();
          await commandResult(user, "Confirmed by user!");
          const box = input.getByRole("textbox");
          assert.equal(await box.inputValue(), "kept while away");
          await dialogsArmed(user.page);
          await box.press("Enter");
          await commandResult(user, "You entered: kept while away");
        },
      },
      {
        name: "timed-confirm /timed-select: a timed select answered with the keyboard",
        async run({ user }) {
          await user.type("/timed-select");
          const list = user.dialog(/Pick an option/).getByRole("listbox");
          await list.getByRole("option", { name: "Option C" }).waitFor();
          assert.deepEqual(await list.getByRole("option").allInnerTexts(), ["Option A", "Option B", "Option C"]);
          await dialogsArmed(user.page);
          await user.page.keyboard.press("ArrowDown");
          await user.page.keyboard.press("Enter");
          await commandResult(user, "Selected: Option B");
        },
      },
      {
        name: "timed-confirm /timed-signal: pi abandons the dialog through its AbortSignal; the page is not stuck",
        async run({ user }) {
          const from = user.mark();
          await user.type("/timed-signal");
          await user.toast("Dialog will auto-cancel in 5 seconds...");
          const dialog = user.dialog(/Timed Confirmation/);
          await dialog.waitFor();
          // pi resolves the dialog itself after 5 s and tells the page nothing but its own warning.
          await user.session.client.next(
            (r) => r.type === "extension_ui_request" && r.message === "Dialog timed out (auto-cancelled)",
            from,
            "pi's timeout warning",
          );
          await user.toast("Dialog timed out (auto-cancelled)");
          // The user can still dismiss what is left; pi ignores the late answer and the session goes on.
          if ((await dialog.count()) > 0) await dialog.getByRole("button", { name: "No" }).click();
          await dialog.waitFor({ state: "detached" });
          await commandToasts(user, "/session-name", /^(No session name set|Session: .*)$/);
        },
      },
      {
        name: "commands /commands: a select of pi's commands, then a confirm with a two-line message; the path reaches the toast",
        async run({ user }) {
          await user.type("/commands");
          const list = user.dialog("Available Commands").getByRole("listbox");
          await list.getByRole("option", { name: "--- Extensions ---" }).waitFor();
          await list.getByRole("option", { name: /^\/session-name - Set or show session name/ }).click();
          const confirm = user.dialog("session-name");
          await confirm.getByText("View source path?").waitFor();
          const message = await shownText(confirm.getByText(/View source path\?/));
          assert.match(message, /^View source path\?\n\/.*session-name\.ts$/);
          await confirm.getByRole("button", { name: "Yes" }).click();
          const notify = await user.notified(/session-name\.ts$/);
          await user.toast(String(notify.message));
        },
      },
      {
        name: "session-name /session-name: the name set in the page is the name pi reports back",
        async run({ user }) {
          await commandToasts(user, "/session-name Named from the page", "Session named: Named from the page");
          await commandToasts(user, "/session-name", "Session: Named from the page");
          const state = await user.command({ type: "get_state" });
          assert.equal((state.data as { sessionName?: string }).sessionName, "Named from the page");
        },
      },
      {
        name: "input-transform: typing ping is handled by the extension (toast pong), no model turn",
        async run({ user }) {
          const from = user.mark();
          await commandToasts(user, "ping", "pong");
          assert.equal(
            user.session.client.records.slice(from).some((r) => r.type === "agent_start"),
            false,
            "no agent run",
          );
        },
      },
    ],
  },
  {
    name: "tool_call, turn and agent hooks during scripted model turns",
    examples: [
      "permission-gate.ts",
      "protected-paths.ts",
      "status-line.ts",
      "system-prompt-header.ts",
      "titlebar-spinner.ts",
      "model-status.ts",
      "bookmark.ts",
    ],
    // A second model, for model-status: pi reports a model_select only when the model changes.
    prepare: (cwd) => addModel(join(cwd, "agent/models.json"), "second-model"),
    cases: [
      {
        name: "status-line at session_start: its dim 'Ready' status, styled, no escape codes",
        async run({ user }) {
          await user.page.locator("pi-status-bar").getByText("Ready").waitFor();
        },
      },
      {
        name: "permission-gate: the model's rm -rf asks with pi's multi-line title; No (mouse) blocks it, the file stays",
        async run({ user, model, cwd }) {
          writeFileSync(join(cwd, "victim.txt"), "keep me");
          script(
            model,
            { text: "Cleaning up.", toolCalls: [{ name: "bash", arguments: { command: "rm -rf victim.txt" } }] },
            { text: "Stopped." },
          );
          await user.type("Clean up the folder");
          const dialog = user.dialog(/Dangerous command/);
          const title = await shownText(dialog.getByText(/Dangerous command/));
          assert.match(title, /Dangerous command:\n\n {2}rm -rf victim\.txt\n\nAllow\?/);
          await dialog.getByRole("option", { name: "No" }).click();
          await user.agentEnd(user.since);
          assert.equal(existsSync(join(cwd, "victim.txt")), true, "the file is still there");
          assert.match(lastToolResults(model), /Blocked by user/);
        },
      },
      {
        name: "permission-gate: the same question answered Yes with the keyboard; pi runs the command",
        async run({ user, model, cwd }) {
          writeFileSync(join(cwd, "victim.txt"), "delete me");
          script(
            model,
            { text: "Cleaning up.", toolCalls: [{ name: "bash", arguments: { command: "rm -rf victim.txt" } }] },
            { text: "Done." },
          );
          await user.type("Clean up the folder");
          await user
            .dialog(/Dangerous command/)
            .getByRole("option", { name: "Yes" })
            .waitFor();
          await dialogsArmed(user.page);
          await user.page.keyboard.press("Enter");
          await user.agentEnd(user.since);
          assert.equal(existsSync(join(cwd, "victim.txt")), false, "pi deleted the file");
          assert.doesNotMatch(lastToolResults(model), /Blocked/);
        },
      },
      {
        name: "protected-paths: the model's write to .env is blocked with a warning toast; no file is written",
        async run({ user, model, cwd }) {
          script(
            model,
            { toolCalls: [{ name: "write", arguments: { path: ".env", content: "SECRET=1\n" } }] },
            { text: "It is protected." },
          );
          await user.type("Store the secret");
          await user.toast("Blocked write to protected path: .env");
          const notify = await user.notified("Blocked write to protected path: .env");
          assert.equal(notify.notifyType, "warning");
          await user.agentEnd(user.since);
          assert.equal(existsSync(join(cwd, ".env")), false);
          assert.match(lastToolResults(model), /Path \\".env\\" is protected/);
        },
      },
      {
        name: "status-line, system-prompt-header, titlebar-spinner after a turn: status texts and document.title",
        async run({ user, model, cwd }) {
          await modelAnswers(user, model, "Hello from the model.");
          const status = user.page.locator("pi-status-bar");
          await status.getByText(/✓ Turn \d+ complete/).waitFor();
          await status.getByText(/^System: \d+ chars$/).waitFor();
          const title = `π - ${basename(cwd)}`;
          await user.page.waitForFunction((expected) => document.title === expected, title);
        },
      },
      {
        name: "model-status: set_model from a client; the model_select toast and status reach the page",
        async run({ user }) {
          const response = await user.command({ type: "set_model", provider: "scripted", modelId: "second-model" });
          assert.equal(response.success, true);
          await user.toast("Model: scripted/second-model");
          await user.page.locator("pi-status-bar").getByText("🤖 second-model").waitFor();
          await user.command({ type: "set_model", provider: "scripted", modelId: "scripted-model" });
          await user.page.locator("pi-status-bar").getByText("🤖 scripted-model").waitFor();
        },
      },
      {
        name: "bookmark /bookmark and /unbookmark: pi labels the last assistant message and reports it",
        async run({ user }) {
          await commandToasts(user, "/bookmark first answer", "Bookmarked as: first answer");
          await commandToasts(user, "/unbookmark", "Removed bookmark: first answer");
          await commandToasts(user, "/unbookmark", "No bookmarked entry found");
        },
      },
    ],
  },
  {
    name: "session_before_switch and session_before_fork from a second client",
    examples: ["confirm-destructive.ts"],
    cases: [
      {
        name: "confirm-destructive: new_session asks 'Clear session?'; No (keyboard) cancels it, pi says so",
        async run({ user }) {
          const response = user.command({ type: "new_session" });
          const dialog = user.dialog(/Clear session\?/);
          await dialog.getByText("This will delete all messages in the current session.").waitFor();
          await dialog.getByRole("button", { name: "No" }).focus();
          await dialogsArmed(user.page);
          await user.page.keyboard.press("Enter");
          assert.deepEqual((await response).data, { cancelled: true });
          await user.toast("Clear cancelled");
        },
      },
      {
        name: "confirm-destructive: fork asks in a select named after the entry; No cancels, Yes forks",
        async run({ user, model }) {
          await modelAnswers(user, model, "First answer.");
          const forkable = await user.command({ type: "get_fork_messages" });
          const entryId = (forkable.data as { messages: Array<{ entryId: string }> }).messages[0]?.entryId;
          assert.ok(entryId, "pi offers a user message to fork from");
          const title = `Fork from entry ${entryId.slice(0, 8)}?`;

          const refused = user.command({ type: "fork", entryId });
          await user.dialog(title).getByRole("option", { name: "No, stay in current session" }).click();
          assert.equal(((await refused).data as { cancelled: boolean }).cancelled, true);
          await user.toast("Fork cancelled");

          const accepted = user.command({ type: "fork", entryId });
          await user.dialog(title).getByRole("option", { name: "Yes, create fork" }).click();
          const forked = await accepted;
          assert.equal(forked.success, true);
          assert.equal((forked.data as { cancelled: boolean }).cancelled, false);
        },
      },
      {
        name: "confirm-destructive: new_session answered Yes (mouse) starts a new session",
        async run({ user }) {
          const response = user.command({ type: "new_session" });
          await user
            .dialog(/Clear session\?/)
            .getByRole("button", { name: "Yes" })
            .click();
          assert.deepEqual((await response).data, { cancelled: false });
          const messages = await user.command({ type: "get_messages" });
          assert.deepEqual((messages.data as { messages: unknown[] }).messages, []);
        },
      },
    ],
  },
  {
    name: "session hooks in a git repository with uncommitted files",
    examples: ["dirty-repo-guard.ts", "git-checkpoint.ts"],
    prepare: (cwd) => {
      execFileSync("git", ["init", "-q"], { cwd });
      writeFileSync(join(cwd, "uncommitted.txt"), "work in progress\n");
    },
    cases: [
      {
        name: "dirty-repo-guard: new_session asks with pi's count of changed files; 'No, let me commit first' cancels",
        async run({ user, cwd }) {
          const changed = execFileSync("git", ["status", "--porcelain"], { cwd, encoding: "utf8" }).trim().split("\n");
          const response = user.command({ type: "new_session" });
          const list = user.dialog(`You have ${changed.length} uncommitted file(s). new session anyway?`);
          await list.getByRole("option", { name: "No, let me commit first" }).click();
          assert.deepEqual((await response).data, { cancelled: true });
          const notify = await user.notified("Commit your changes first");
          assert.equal(notify.notifyType, "warning");
          await user.toast("Commit your changes first");
        },
      },
      {
        name: "dirty-repo-guard then git-checkpoint on fork after a run with a tool call: only the guard asks",
        async run({ user, model, cwd }) {
          script(
            model,
            { toolCalls: [{ name: "bash", arguments: { command: "echo more >> uncommitted.txt" } }] },
            { text: "Appended." },
          );
          const from = user.mark();
          await user.type("Append a line");
          await user.agentEnd(from);
          const forkable = await user.command({ type: "get_fork_messages" });
          const entryId = (forkable.data as { messages: Array<{ entryId: string }> }).messages.at(-1)?.entryId;
          assert.ok(entryId);
          const response = user.command({ type: "fork", entryId });
          await user
            .dialog(/uncommitted file\(s\)\. fork anyway\?/)
            .getByRole("option", { name: "Yes, proceed anyway" })
            .click();
          const forked = await response;
          assert.equal((forked.data as { cancelled: boolean }).cancelled, false);
          // git-checkpoint forgets its checkpoints when the run ends, so it has nothing to restore and asks nothing.
          assert.equal(
            user.session.client.records
              .slice(from)
              .filter((r) => r.type === "extension_ui_request" && r.method === "select").length,
            1,
          );
          assert.match(execFileSync("git", ["status", "--porcelain"], { cwd, encoding: "utf8" }), /uncommitted\.txt/);
        },
      },
    ],
  },
  {
    name: "plan-mode: a plan made by the scripted model, executed with its progress in status and widget",
    examples: ["plan-mode/index.ts"],
    cases: [
      {
        name: "plan-mode /plan: pi's toast and the '⏸ plan' status",
        async run({ user }) {
          await commandToasts(user, "/plan", /^Plan mode enabled\./);
          await user.page.locator("pi-status-bar").getByText("⏸ plan").waitFor();
        },
      },
      {
        name: "plan-mode tool_call and agent_end: a write is blocked, then 'what next?' is asked; Execute (keyboard) runs the plan",
        async run({ user, model, cwd }) {
          script(
            model,
            { toolCalls: [{ name: "bash", arguments: { command: "touch forbidden.txt" } }] },
            { text: "Plan:\n1. Make the notes file\n2. Fill in the summary line\n" },
          );
          await user.type("Plan the notes");
          const list = user.dialog("Plan mode - what next?").getByRole("listbox");
          await list.getByRole("option", { name: "Refine the plan" }).waitFor();
          assert.deepEqual(await list.getByRole("option").allInnerTexts(), [
            "Execute the plan (track progress)",
            "Stay in plan mode",
            "Refine the plan",
          ]);
          assert.equal(existsSync(join(cwd, "forbidden.txt")), false);
          assert.match(JSON.stringify(model.requests[1]?.messages), /Plan mode: command blocked/);

          // Execution: step 1 is done in the first turn, the run ends with step 2 open.
          script(
            model,
            {
              text: "[DONE:1] Made the notes file.",
              toolCalls: [{ name: "bash", arguments: { command: "printf 'notes' > notes.txt" } }],
            },
            { text: "The summary comes next." },
          );
          const from = user.mark();
          await dialogsArmed(user.page);
          await user.page.keyboard.press("Enter");
          await user.agentEnd(from);
          assert.equal(readFileSync(join(cwd, "notes.txt"), "utf8"), "notes");
          const status = user.page.locator("pi-status-bar");
          await status.getByText("📋 1/2").waitFor();
          const widget = user.page.locator('pi-widget-slot[placement="aboveEditor"]');
          await widget.getByText("Fill in the summary line").waitFor();
          // pi's theme.strikethrough sends no SGR 9 over RPC (either version): the done step is marked by its ☑.
          await widget.getByText("☑ Make the notes file").waitFor();
          await widget.getByText("☐ Fill in the summary line").waitFor();
        },
      },
      {
        name: "plan-mode /todos: a multi-line toast keeps its lines",
        async run({ user }) {
          await commandToasts(user, "/todos", /^Plan Progress:/);
          const toast = user.page.getByRole("region", { name: "Notifications" }).getByText(/Plan Progress:/);
          assert.match(
            await shownText(toast),
            /Plan Progress:\n1\. ✓ Make the notes file\n2\. ○ Fill in the summary line/,
          );
        },
      },
      {
        name: "plan-mode turn_end and agent_end: the last step done clears the widget and the status",
        async run({ user, model }) {
          script(model, { text: "[DONE:2] Filled in the summary line." });
          await user.type("Go on");
          await user.agentEnd(user.since);
          const widget = user.page.locator('pi-widget-slot[placement="aboveEditor"]');
          await widget.getByText("Fill in the summary line").waitFor({ state: "detached" });
          await user.page.locator("pi-status-bar").getByText("📋").waitFor({ state: "detached" });
        },
      },
      {
        name: "plan-mode 'Refine the plan': pi's editor; the refinement reaches the model as the user's message",
        async run({ user, model }) {
          await commandToasts(user, "/plan", /^Plan mode enabled\./);
          script(
            model,
            { text: "Plan:\n1. Write the release notes\n" },
            { text: "Plan:\n1. Write the release notes\n2. Add a test for them\n" },
          );
          await user.type("Plan the release");
          await user.dialog("Plan mode - what next?").getByRole("option", { name: "Refine the plan" }).click();
          const editor = user.dialog("Refine the plan:").getByRole("textbox");
          await editor.fill("Add a test step");
          await dialogsArmed(user.page);
          await editor.press("Enter");
          await user.record(
            () => model.requests.some((r) => JSON.stringify(r.messages).includes("Add a test step")),
            user.since,
            "the refinement at the model",
          );
          await user.dialog("Plan mode - what next?").getByRole("option", { name: "Stay in plan mode" }).click();
          await user.idle();
        },
      },
    ],
  },
  {
    name: "UI pi does not carry over RPC: custom(), footer, header, editor component, working indicator, theme",
    examples: [
      "custom-footer.ts",
      "custom-header.ts",
      "hidden-thinking-label.ts",
      "working-indicator.ts",
      "working-message-test.ts",
      "modal-editor.ts",
      "rainbow-editor.ts",
      "border-status-editor.ts",
      "mac-system-theme.ts",
      "snake.ts",
      "space-invaders.ts",
      "tic-tac-toe.ts",
      "doom-overlay/index.ts",
      "overlay-test.ts",
      "overlay-qa-tests.ts",
      "todo.ts",
      "tools.ts",
      "preset.ts",
      "question.ts",
      "questionnaire.ts",
      "interactive-shell.ts",
      "github-issue-autocomplete.ts",
    ],
    cases: [
      {
        name: "working-indicator at session_start: its styled status; the editor, header, footer and theme replacements show nothing and break nothing",
        async run({ user, model }) {
          await user.page.locator("pi-status-bar").getByText("Indicator: custom spinner").waitFor();
          await modelAnswers(user, model, "Still answering.");
          assert.equal(await user.page.locator("pi-extension-ui").getByRole("group").count(), 0);
        },
      },
      ...(
        [
          ["custom-footer /footer (setFooter)", "/footer", "Custom footer enabled"],
          ["custom-header /builtin-header (setHeader)", "/builtin-header", "Built-in header restored"],
          ["hidden-thinking-label /thinking-label", "/thinking-label", "Hidden thinking label reset to: Pondering..."],
          [
            "working-indicator /working-indicator (setWorkingIndicator)",
            "/working-indicator",
            "Working indicator: custom spinner",
          ],
        ] as const
      ).map(
        ([name, command, message]): ExampleCase => ({
          name: `${name}: pi's own report is the toast; the replaced terminal part has no counterpart in the page`,
          async run({ user }) {
            const notify = await commandToasts(user, command, message);
            assert.notEqual(notify.notifyType, "error");
          },
        }),
      ),
      ...(
        [
          ["snake /snake", "/snake", "Snake requires interactive mode"],
          ["space-invaders /invaders", "/invaders", "Space Invaders requires interactive mode"],
          ["tic-tac-toe /tic-tac-toe", "/tic-tac-toe", "Tic-tac-toe requires interactive mode"],
          ["todo /todos", "/todos", "/todos requires interactive mode"],
          ["tools /tools", "/tools", "/tools requires TUI mode"],
          ["overlay-test /overlay-test", "/overlay-test", undefined],
          ["overlay-qa-tests /overlay-animation", "/overlay-animation", undefined],
        ] as const
      ).map(
        ([name, command, message1x]): ExampleCase => ({
          name: `${name} (ctx.ui.custom): nothing to show in 0.73.1; 1.x says it needs the terminal`,
          async run({ user, pi }) {
            if (pi.version.startsWith("0.") || message1x === undefined) await commandShowsNothing(user, command);
            else {
              const notify = await commandToasts(user, command, message1x);
              assert.equal(notify.notifyType, "error");
            }
          },
        }),
      ),
      {
        name: "doom-overlay /doom-overlay (ctx.ui.custom): 1.x says it needs the terminal",
        // 0.73.1 downloads a WAD from the internet before it tries its overlay: not run here.
        versions: ["1.6.0"],
        async run({ user }) {
          await commandToasts(user, "/doom-overlay", "DOOM requires interactive mode");
        },
      },
      {
        name: "interactive-shell user_bash (ctx.ui.custom): 1.x answers an interactive command from the bash command itself; 0.73.1 emits no user_bash over RPC",
        async run({ user, pi, cwd }) {
          writeFileSync(join(cwd, "notes.txt"), "plain notes\n");
          // less, which prints the file and exits when it has no terminal (vim would wait for one).
          const response = await user.command({ type: "bash", command: "less notes.txt" });
          assert.equal(response.success, true);
          const output = (response.data as { output: string }).output;
          if (pi.version.startsWith("0.")) assert.equal(output.trim(), "plain notes");
          else assert.equal(output, "(interactive commands require TUI)");
          assert.equal(await user.page.locator("pi-extension-ui").getByRole("group").count(), 0);
        },
      },
      {
        name: "github-issue-autocomplete (addAutocompleteProvider) at session_start: pi's error that the folder is no git repository",
        async run({ user }) {
          const notify = await user.notified(/^github-issue-autocomplete: .*not a git repository/, 0);
          assert.equal(notify.notifyType, "error");
        },
      },
      {
        name: "preset /preset with no presets: pi's warning names where presets go",
        async run({ user }) {
          const notify = await commandToasts(user, "/preset", /^No presets defined\. Add presets to /);
          assert.equal(notify.notifyType, "warning");
        },
      },
      {
        name: "question and questionnaire tools (ctx.ui.custom): the model's question gets pi's answer, the page shows no dialog",
        async run({ user, model, pi }) {
          script(
            model,
            {
              toolCalls: [
                {
                  name: "question",
                  arguments: { question: "Pick a colour", options: [{ label: "Red" }, { label: "Blue" }] },
                },
              ],
            },
            {
              toolCalls: [
                {
                  name: "questionnaire",
                  arguments: {
                    questions: [{ id: "size", prompt: "Pick a size", options: [{ value: "s", label: "Small" }] }],
                  },
                },
              ],
            },
            { text: "No answers, then." },
          );
          await user.type("Ask me");
          await user.agentEnd(user.since);
          const results = JSON.stringify(
            model.requests.slice(-2).map((r) => r.messages.filter((m) => m.role === "tool").at(-1)?.content),
          );
          if (pi.version.startsWith("0.")) {
            assert.match(results, /User cancelled the selection/);
            // 0.73.1's questionnaire reads a field of the nothing custom() resolves with: its tool fails, pi reports
            // the error to the model and the run goes on.
            assert.match(results, /Cannot read properties of undefined \(reading 'cancelled'\)/);
          } else assert.equal(results.match(/UI not available \(running in non-interactive mode\)/g)?.length, 2);
          const asked = user.session.client.records.slice(user.since).filter((r) => r.type === "extension_ui_request");
          assert.deepEqual(asked, []);
          assert.equal(await user.page.locator("pi-extension-ui").getByRole("group").count(), 0);
        },
      },
    ],
  },
  {
    name: "commands and input hooks that answer through toasts, around a conversation",
    examples: [
      "claude-rules.ts",
      "dynamic-tools.ts",
      "pirate.ts",
      "inline-bash.ts",
      "send-user-message.ts",
      "tool-override.ts",
      "summarize.ts",
      "qna.ts",
      "custom-compaction.ts",
      "trigger-compact.ts",
      "handoff.ts",
    ],
    prepare: (cwd) => {
      mkdirSync(join(cwd, ".claude/rules"), { recursive: true });
      writeFileSync(join(cwd, ".claude/rules/style.md"), "# Style\nWrite short sentences.\n");
    },
    cases: [
      {
        name: "claude-rules at session_start: pi reports the rule it found",
        async run({ user }) {
          await user.notified("Found 1 rule(s) in .claude/rules/", 0);
        },
      },
      {
        name: "dynamic-tools /add-echo-tool: usage warning without a name; with one, pi registers the tool",
        async run({ user }) {
          const usage = await commandToasts(user, "/add-echo-tool", /^Usage: \/add-echo-tool <tool_name>/);
          assert.equal(usage.notifyType, "warning");
          await commandToasts(user, "/add-echo-tool echo_page", "Registered dynamic tool: echo_page");
          const tools = await user.command({ type: "get_state" });
          assert.equal(tools.success, true);
        },
      },
      {
        name: "pirate /pirate: the toast, then the model's system prompt is in pirate mode",
        async run({ user, model }) {
          await commandToasts(user, "/pirate", "Arrr! Pirate mode enabled!");
          await modelAnswers(user, model, "Ahoy!");
          assert.match(JSON.stringify(model.requests.at(-1)?.messages[0]), /PIRATE MODE/);
          await commandToasts(user, "/pirate", "Pirate mode disabled");
        },
      },
      {
        name: "inline-bash input hook: !{command} is run by pi; its multi-line toast, and the model gets the output",
        async run({ user, model }) {
          script(model, { text: "Three it is." });
          await user.type("Count to !{echo three}");
          await user.agentEnd(user.since);
          const expected = 'Expanded 1 inline command(s):\n!{echo three} -> "three"';
          await user.notified(expected);
          const toast = user.page.getByRole("region", { name: "Notifications" }).getByText(/Expanded 1 inline/);
          assert.equal(await shownText(toast), expected);
          assert.match(JSON.stringify(model.requests.at(-1)?.messages), /Count to three/);
        },
      },
      {
        name: "send-user-message /ask sends the user's message to the model; /steer without text warns",
        async run({ user, model }) {
          script(model, { text: "Asked and answered." });
          await user.type("/ask What is in the folder?");
          await user.agentEnd(user.since);
          const last = model.requests
            .at(-1)
            ?.messages.filter((m) => m.role === "user")
            .at(-1);
          assert.match(JSON.stringify(last?.content), /What is in the folder\?/);
          const usage = await commandToasts(user, "/steer", "Usage: /steer <message>");
          assert.equal(usage.notifyType, "warning");
        },
      },
      {
        name: "tool-override /read-log before any read: pi says there is no log",
        async run({ user }) {
          await commandToasts(user, "/read-log", "No access log found");
        },
      },
      {
        name: "summarize /summarize (its summary needs an OpenAI key, ctx.ui.custom shows it): pi's progress and warning toasts",
        async run({ user }) {
          await commandToasts(user, "/summarize", "Preparing summary...");
          const warning = await user.notified(/^(No API key|No authentication configured) for openai\//);
          assert.equal(warning.notifyType, "warning");
          await user.toast(String(warning.message));
        },
      },
      {
        name: "qna /qna (ctx.ui.custom for the extraction): 0.73.1 then sets the editor text to nothing, 1.x says it needs the terminal",
        async run({ user, pi }) {
          const prompt = user.page.locator("pi-prompt").getByRole("textbox");
          if (!pi.version.startsWith("0.")) {
            const notify = await commandToasts(user, "/qna", "qna requires interactive mode");
            assert.equal(notify.notifyType, "error");
            return;
          }
          // Sent by another client, so that the page's prompt holds a draft that pi's set_editor_text replaces.
          await prompt.fill("a draft");
          await user.command({ type: "prompt", message: "/qna" });
          await user.notified("Questions loaded. Edit and submit when ready.");
          await user.toast("Questions loaded. Edit and submit when ready.");
          const setText = await user.ui("set_editor_text");
          assert.equal(setText.text, undefined, "0.73.1 sends set_editor_text without text");
          assert.equal(await prompt.inputValue(), "", "an absent text empties the editor");
        },
      },
      {
        name: "custom-compaction and trigger-compact /trigger-compact: pi's compaction reports, in order",
        async run({ user, pi }) {
          await commandToasts(user, "/trigger-compact", "Compaction started");
          if (pi.version.startsWith("0.")) {
            await user.toast("Custom compaction extension triggered");
            const fallback = await user.notified("No API key for google, using default compaction");
            assert.equal(fallback.notifyType, "warning");
            await user.toast("No API key for google, using default compaction");
            await commandResult(user, "Compaction completed");
          } else {
            // 1.x will not compact a session this small, so session_before_compact never runs.
            await commandResult(user, "Compaction failed: Nothing to compact (session too small)");
          }
        },
      },
      {
        name: "handoff /handoff: 0.73.1 asks in pi's editor, starts a new session and fills the prompt; 1.x says it needs the terminal",
        async run({ user, pi }) {
          if (!pi.version.startsWith("0.")) {
            await commandToasts(user, "/handoff carry on", "handoff requires interactive mode");
            return;
          }
          await user.type("/handoff carry on");
          const editor = user.dialog("Edit handoff prompt").getByRole("textbox");
          await editor.fill("Carry on with the notes.");
          await dialogsArmed(user.page);
          await editor.press("Enter");
          await commandResult(user, "Handoff ready. Submit when ready.");
          const prompt = user.page.locator("pi-prompt").getByRole("textbox");
          assert.equal(await prompt.inputValue(), "Carry on with the notes.");
          const messages = await user.command({ type: "get_messages" });
          assert.deepEqual((messages.data as { messages: unknown[] }).messages, [], "a new session");
        },
      },
    ],
  },
  {
    name: "project agents and provider debugging",
    examples: (pi) =>
      pi.version.startsWith("0.")
        ? ["subagent/index.ts"]
        : ["subagent/index.ts", "project-trust.ts", "debug-provider.ts"],
    prepare: (cwd) => {
      mkdirSync(join(cwd, ".pi/agents"), { recursive: true });
      writeFileSync(join(cwd, ".pi/agents/helper.md"), "---\nname: helper\ndescription: Helps\n---\nHelp.\n");
      mkdirSync(join(cwd, ".pi/extensions"), { recursive: true });
      writeFileSync(join(cwd, ".pi/extensions/project.ts"), "export default function () {}\n");
    },
    cases: [
      {
        name: "subagent: the model asks for a project agent; pi's confirm names its source; No keeps it from running",
        async run({ user, model, cwd }) {
          script(
            model,
            { toolCalls: [{ name: "subagent", arguments: { agent: "helper", task: "Say hi", agentScope: "both" } }] },
            { text: "Not approved." },
          );
          await user.type("Delegate a greeting");
          const dialog = user.dialog("Run project-local agents?");
          const message = await shownText(dialog.getByText(/Project agents are repo-controlled/));
          assert.match(message, /helper/);
          assert.match(message, new RegExp(`${join(cwd, ".pi/agents").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
          assert.match(message, /\n\nProject agents are repo-controlled\. Only continue for trusted repositories\.$/);
          await dialog.getByRole("button", { name: "No" }).click();
          await user.agentEnd(user.since);
          assert.match(lastToolResults(model), /Canceled: project-local agents not approved\./);
        },
      },
      {
        name: "project-trust: project_trust runs before pi's RPC UI exists (no select reaches the page); its session_start report does",
        versions: ["1.6.0"],
        async run({ user, cwd }) {
          await user.notified(`project-trust example loaded after trust resolution in ${cwd}`, 0);
          assert.ok(
            user.session.logs.some((l) => l.includes(`project_trust fired for ${cwd} (mode: rpc`)),
            "its notify went to pi's stderr",
          );
          const selects = user.session.client.records.filter(
            (r) => r.method === "select" && String(r.title).startsWith("Project trust"),
          );
          assert.deepEqual(selects, []);
        },
      },
      {
        name: "debug-provider /debug-provider: status and toast on, a captured turn, then off clears the status",
        versions: ["1.6.0"],
        async run({ user, model }) {
          await commandToasts(user, "/debug-provider", "Provider event capture enabled");
          const status = user.page.locator("pi-status-bar");
          await status.getByText("provider debug").waitFor();
          await modelAnswers(user, model, "Captured.");
          await commandToasts(user, "/debug-provider off", "Provider event capture disabled");
          await status.getByText("provider debug").waitFor({ state: "detached" });
        },
      },
    ],
  },
  {
    name: "git after a run and at the end of a session",
    examples: (pi) =>
      pi.version.startsWith("0.") ? ["auto-commit-on-exit.ts"] : ["git-merge-and-resolve.ts", "auto-commit-on-exit.ts"],
    prepare: (cwd) => {
      // A repository whose upstream gained a commit that conflicts with the local one.
      const git = (dir: string, ...args: string[]) => execFileSync("git", args, { cwd: dir, stdio: "pipe" });
      git(cwd, "init", "-q", "-b", "main");
      git(cwd, "config", "user.name", "Example Test");
      git(cwd, "config", "user.email", "example@test.invalid");
      writeFileSync(join(cwd, ".gitignore"), "/*\n!/.gitignore\n!/notes.txt\n");
      writeFileSync(join(cwd, "notes.txt"), "base\n");
      git(cwd, "add", "-A");
      git(cwd, "commit", "-qm", "base");
      git(cwd, "clone", "-q", "--bare", cwd, join(cwd, "remote.git"));
      git(cwd, "remote", "add", "origin", join(cwd, "remote.git"));
      git(cwd, "fetch", "-q", "origin");
      git(cwd, "branch", "-q", "-u", "origin/main");
      git(cwd, "clone", "-q", join(cwd, "remote.git"), join(cwd, "other"));
      const other = join(cwd, "other");
      git(other, "config", "user.name", "Someone Else");
      git(other, "config", "user.email", "else@test.invalid");
      writeFileSync(join(other, "notes.txt"), "theirs\n");
      git(other, "commit", "-qam", "theirs");
      git(other, "push", "-q", "origin", "main");
      writeFileSync(join(cwd, "notes.txt"), "ours\n");
      git(cwd, "commit", "-qam", "ours");
    },
    cases: [
      {
        name: "git-merge-and-resolve agent_end: pi's toast, the merge, and the conflicts sent to the model as the user's message",
        versions: ["1.6.0"],
        async run({ user, model, cwd }) {
          script(
            model,
            { text: "Looked at it." },
            {
              text: "Resolved.",
              toolCalls: [
                {
                  name: "bash",
                  arguments: {
                    command: "printf 'ours and theirs\\n' > notes.txt && git commit -qam resolved && echo ok",
                  },
                },
              ],
            },
            { text: "The merge is committed." },
          );
          await user.type("Look at the notes");
          await commandResult(user, "git-merge-and-resolve: fetching origin, merging origin/main");
          await user.record(() => model.requests.length >= 2, user.since, "the conflicts at the model");
          const conflicts = model.requests[1]?.messages.filter((m) => m.role === "user").at(-1);
          assert.match(
            JSON.stringify(conflicts?.content),
            /Merged origin\/main with conflicts:\\n\\n {2}notes\.txt:1-5 \(ours 2, theirs 4\)\\n\\nResolve these conflicts\./,
          );
          await user.idle();
          assert.equal(readFileSync(join(cwd, "notes.txt"), "utf8"), "ours and theirs\n");
        },
      },
      {
        name: "auto-commit-on-exit session_shutdown: new_session commits the changed notes, named after the last answer",
        async run({ user, model, cwd }) {
          await modelAnswers(user, model, "Notes updated.");
          writeFileSync(join(cwd, "notes.txt"), "changed during the session\n");
          const response = await user.command({ type: "new_session" });
          assert.equal(response.success, true);
          await commandResult(user, "Auto-committed: [pi] Notes updated.");
          const log = execFileSync("git", ["log", "-1", "--format=%s"], { cwd, encoding: "utf8" });
          assert.equal(log.trim(), "[pi] Notes updated.");
        },
      },
    ],
  },
];

/** Waits for pi's notify with exactly this message and its toast. */
async function commandResult(user: ExampleUser, message: string): Promise<void> {
  await user.notified(message);
  await user.toast(message);
}

/** An escape character, or what is left of an SGR sequence when the escape is dropped. */
const RAW_ESCAPES = new RegExp(`${String.fromCharCode(27)}|\\[[0-9;]*m`);

/** What must hold on the page after every case: no leaked escape codes, nothing injected, no page errors. */
async function pageIsClean(session: ExampleSession): Promise<void> {
  const { page } = session;
  assert.equal(await page.getByText(RAW_ESCAPES).count(), 0, "no raw escape codes are visible");
  assert.equal(await page.locator("img, script:not([type=module]), iframe").count(), 0, "no injected elements");
  assert.deepEqual(session.pageErrors, []);
}

for (const pi of PI_VERSIONS) {
  describe(`pi ${pi.version}: example extensions through the bridge into the single-file page`, () => {
    after(() => closeBrowser());
    for (const group of GROUPS) {
      if (group.versions !== undefined && !group.versions.includes(pi.version)) continue;
      describe(`pi ${pi.version}: ${group.name}`, { timeout: 180_000 }, () => {
        let model: ScriptedModel;
        let session: ExampleSession;
        let user: ExampleUser;
        before(async () => {
          model = await startScriptedModel();
          session = await startExampleSession({
            pi,
            examples: typeof group.examples === "function" ? group.examples(pi) : group.examples,
            model,
            ...(group.prepare === undefined ? {} : { prepare: group.prepare }),
          });
          user = new ExampleUser(session);
        });
        after(async () => {
          await session?.close();
          await model?.close();
        });
        for (const example of group.cases) {
          if (example.versions !== undefined && !example.versions.includes(pi.version)) continue;
          it(`pi ${pi.version}: ${example.name}`, { timeout: 60_000 }, async () => {
            user.startCase();
            await example.run({ user, model, pi, cwd: session.pi.cwd });
            await pageIsClean(session);
          });
        }
      });
    }
  });
}
