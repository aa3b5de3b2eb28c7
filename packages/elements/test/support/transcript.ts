/**
 * What the transcript tests share: the recorded conversations (test/fixtures/conversation/<version>/, served by the
 * test runner from the repository), fed into a ConversationState as the store's refresh rule would; a transcript
 * with every kind of entry in every state (`everyState`); a long session (`longHistory`). The tests show them with
 * the real `pi-markdown`, `pi-code-block` and `pi-tool-card` (import `src/transcript.js`).
 */
import type { AgentEventBase } from "@pi-elements/core";
import { ConversationState } from "@pi-elements/core/conversation";
import { assistant, streamAssistant } from "../../../core/test/conversation-wire.js";

export const VERSIONS = ["0.73.1", "1.6.0"] as const;
export type Version = (typeof VERSIONS)[number];

type Record_ = { type: string; [key: string]: unknown };

const cache = new Map<string, Record_[]>();

export async function loadRecords(version: Version, scenario: string): Promise<Record_[]> {
  const path = `/test/fixtures/conversation/${version}/${scenario}.jsonl`;
  let records = cache.get(path);
  if (!records) {
    const response = await fetch(path);
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
    const text = await response.text();
    records = text
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as Record_);
    cache.set(path, records);
  }
  return records;
}

/**
 * Feeds recorded records to `state` one by one, calling `step` after each event applied (await it to let the
 * element render). A `get_messages` answer is given to the store only where its refresh rule would have asked for
 * one (after a `bash` answer or a `compaction_end` with a result), as the core's recordings test does.
 */
export async function replay(
  state: ConversationState,
  records: readonly Record_[],
  step?: (record: Record_) => unknown,
): Promise<void> {
  let asked: number | undefined;
  for (const record of records) {
    if (record.type === "response") {
      const data = record.data as { messages?: unknown[] } | undefined;
      if (record.command === "bash" && record.success === true) asked ??= state.mark();
      if (record.command === "get_messages" && Array.isArray(data?.messages)) {
        if (asked !== undefined) state.setHistory(data.messages, asked);
        asked = undefined;
      }
      continue;
    }
    if (record.type === "extension_ui_request") continue;
    state.apply(record as AgentEventBase);
    if (record.type === "compaction_end" && typeof record.result === "object" && record.result !== null) {
      asked = state.mark();
    }
    if (step) await step(record);
  }
}

/** A store holding a whole recorded conversation (no renders on the way). */
export async function recorded(version: Version, scenario: string): Promise<ConversationState> {
  const state = new ConversationState();
  await replay(state, await loadRecords(version, scenario));
  return state;
}

/** pi's built-in tools with a card of their own, and one without (the generic card). */
export const TOOL_NAMES = ["bash", "read", "edit", "write", "grep", "find", "ls", "subagent"] as const;
const lines = (n: number, make: (i: number) => string) => Array.from({ length: n }, (_, i) => make(i + 1)).join("\n");
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/** A call of `tool` (id `<prefix>_<tool>`) with arguments long enough to show everything its card can. */
function call(tool: (typeof TOOL_NAMES)[number], prefix: string) {
  const id = `${prefix}_${tool}`;
  const args: Record<string, Record<string, unknown>> = {
    bash: { command: "npm test -- --reporter=spec packages/elements/test/a-very-long-file-name.browser.test.ts" },
    read: { path: "packages/elements/src/elements/transcript/transcript.ts", offset: 1, limit: 12 },
    edit: { path: "src/a.ts", oldText: "const b = 2;", newText: "const b = 3;" },
    write: { path: "notes/ملاحظات.md", content: lines(12, (i) => `- note ${i}`) },
    grep: { pattern: "TODO", path: "src", glob: "*.ts" },
    find: { pattern: "*.test.ts", path: "packages" },
    ls: { path: "packages/elements" },
    subagent: { task: "Summarise the failing tests and suggest a fix" },
  };
  return { type: "toolCall" as const, id, name: tool, arguments: args[tool]! };
}

/** What `tool` gives back: several lines (more than its preview shows), or an error. */
function output(tool: (typeof TOOL_NAMES)[number], error: boolean): { content: unknown[]; details?: unknown } {
  if (error) return { content: [{ type: "text", text: `${tool}: ENOENT: no such file or directory, open 'x'` }] };
  const text: Record<string, string> = {
    bash: `${lines(8, (i) => `\u001b[32m✓\u001b[0m test ${i} passes (${i} ms) ${"·".repeat(60)}`)}\nexit code 0`,
    read: lines(12, (i) => `const value${i} = ${i}; // a line of code long enough to wrap at 375 px wide`),
    edit: "Successfully replaced text in src/a.ts.",
    write: "",
    grep: lines(16, (i) => `src/file-${i}.ts:${i}: // TODO: item ${i}`),
    find: lines(22, (i) => `packages/elements/test/file-${i}.test.ts`),
    ls: lines(22, (i) => (i % 3 === 0 ? `dir-${i}/` : `file-${i}.ts`)),
    subagent: "The two failing tests wait on a frame that never comes; see transcript-reading.",
  };
  const details =
    tool === "edit" ? { diff: " 1 const a = 1;\n-2 const b = 2;\n+2 const b = 3;\n 3 export { a, b };" } : undefined;
  return { content: text[tool] ? [{ type: "text", text: text[tool] }] : [], details };
}

/**
 * Puts every kind of entry, in every state, into `state`, as the events and histories of a real session would: a
 * user message with an image, thinking (closed), Markdown with code, a table and a link, tool cards of every built-in
 * tool and a generic one done, failed and running (running ones with a nested call, as pi 1.6's subagent or
 * codemode tools make, nested twice), the user's shell command, an extension's custom message, a compaction summary,
 * Arabic and Hebrew text, an aborted and a failed turn, compaction, retry and extension-error notices. With
 * `streaming`, an answer still streaming at the end (thinking open, text, a tool call whose arguments stream).
 */
export function everyState(state: ConversationState, options: { streaming?: boolean } = {}): void {
  const t = 1_700_000_000_000;
  const messages: unknown[] = [
    { role: "compactionSummary", summary: "Earlier, the user asked for **tests**; pi wrote three.", timestamp: t },
    {
      role: "user",
      content: [
        { type: "text", text: "Why does this test fail? Here is a screenshot." },
        { type: "image", data: PNG, mimeType: "image/png" },
      ],
      timestamp: t,
    },
    assistant([
      { type: "thinking", thinking: "The user shows a failing test; read the file first." },
      {
        type: "text",
        text: [
          "## What I found",
          "",
          "The test waits on a **frame**; see [the docs](https://example.com/docs) and `waitFor`.",
          "",
          "```ts",
          "await waitFor(() => el.shadowRoot!.querySelector('[part~=\"feed\"]') !== null, 'the feed renders at last');",
          "```",
          "",
          "| engine | result | a long column heading that needs room | another long one |",
          "| --- | --- | --- | --- |",
          "| chromium | passes | 12 tests in 3.4 seconds with no retries | yes |",
          "| webkit | fails | waits for a frame that WebKitGTK never paints | no |",
          "",
          "- [x] read the test",
          "- [ ] fix it",
        ].join("\n"),
      },
    ]),
  ];
  for (const [prefix, error] of [
    ["done", false],
    ["failed", true],
  ] as const) {
    const calls = TOOL_NAMES.map((tool) => call(tool, prefix));
    messages.push(assistant([{ type: "text", text: `Tools that ${error ? "fail" : "succeed"}:` }, ...calls]));
    for (const [i, tool] of TOOL_NAMES.entries()) {
      messages.push({
        role: "toolResult",
        toolCallId: calls[i]!.id,
        toolName: tool,
        ...output(tool, error),
        isError: error,
        timestamp: t,
      });
    }
  }
  messages.push(
    {
      role: "bashExecution",
      command: "git status --short",
      output: " M packages/elements/src/elements/transcript/transcript.ts\n?? test-results/",
      exitCode: 1,
      cancelled: false,
      truncated: true,
      timestamp: t,
    },
    {
      role: "custom",
      customType: "reminder",
      content: "An extension **reminds** you: run the tests.",
      display: true,
      timestamp: t,
    },
    { role: "custom", customType: "hidden", content: "not shown", display: false, timestamp: t },
    { role: "user", content: "لماذا يفشل هذا الاختبار؟ ומה עם העברית?", timestamp: t },
    assistant([
      {
        type: "text",
        text: "الاختبار ينتظر إطاراً **لا يأتي**. شغّل:\n\n```sh\nnpm test -- --grep transcript\n```\n\n| المحرك | النتيجة |\n| --- | --- |\n| webkit | يفشل |",
      },
    ]),
    assistant([{ type: "text", text: "I was writing a long answer when" }], {
      stopReason: "aborted",
      errorMessage: "Request was aborted",
    }),
  );
  state.setHistory(messages, 0);
  const apply = (event: object) => state.apply(event as AgentEventBase);
  apply({ type: "compaction_start", reason: "threshold" });
  apply({
    type: "compaction_end",
    reason: "threshold",
    aborted: false,
    willRetry: false,
    errorMessage: "Summary failed: 529 overloaded",
  });
  apply({ type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 2000, errorMessage: "529 overloaded" });
  apply({ type: "auto_retry_end", success: true, attempt: 1 });
  apply({ type: "auto_retry_start", attempt: 2, maxAttempts: 3, delayMs: 4000, errorMessage: "529 overloaded" });
  apply({ type: "auto_retry_end", success: false, attempt: 2, finalError: "529 overloaded, 3 attempts" });
  apply({ type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 2000, errorMessage: "503 unavailable" });
  // After the retries: pi takes a failed answer out before it retries (so does the store).
  const failed = assistant([], {
    stopReason: "error",
    errorMessage: "400 Bad Request: the model refused the request",
    timestamp: t + 1,
  });
  apply({ type: "message_start", message: failed });
  apply({ type: "message_end", message: failed });
  apply({
    type: "extension_error",
    extensionPath: "~/.pi/extensions/guard.ts",
    event: "tool_call",
    error: "TypeError: x is undefined",
  });
  // Tools that still run, the subagent with the calls it made (nested twice).
  const running = TOOL_NAMES.map((tool) => call(tool, "running"));
  const runningMessage = assistant([{ type: "text", text: "Running them all:" }, ...running]);
  apply({ type: "message_start", message: runningMessage });
  apply({ type: "message_end", message: runningMessage });
  for (const block of running) {
    apply({ type: "tool_execution_start", toolCallId: block.id, toolName: block.name, args: block.arguments });
    if (block.name === "bash") {
      const partialResult = { content: [{ type: "text", text: lines(7, (i) => `running step ${i}`) }] };
      apply({
        type: "tool_execution_update",
        toolCallId: block.id,
        toolName: "bash",
        args: block.arguments,
        partialResult,
      });
    }
  }
  const parent = "running_subagent";
  const nested = [
    {
      id: `${parent}/1`,
      name: "read",
      args: { path: "packages/elements/test/transcript-reading.browser.test.ts" },
      parent,
    },
    { id: `${parent}/2`, name: "bash", args: { command: "npx wtr --files transcript-reading" }, parent },
    { id: `${parent}/2/1`, name: "ls", args: { path: "test-results" }, parent: `${parent}/2` },
  ];
  for (const n of nested) {
    apply({
      type: "tool_execution_start",
      toolCallId: n.id,
      toolName: n.name,
      args: n.args,
      parentToolCallId: n.parent,
    });
  }
  apply({
    type: "tool_execution_end",
    toolCallId: nested[0]!.id,
    toolName: "read",
    result: { content: [{ type: "text", text: lines(12, (i) => `line ${i}`) }] },
    isError: false,
    durationMs: 12,
    parentToolCallId: parent,
  });
  if (options.streaming) {
    const events = streamAssistant(
      "1.6.0",
      assistant([
        { type: "thinking", thinking: "Still thinking about the frame that never comes." },
        { type: "text", text: "Streaming an answer with **bold** and `code`, and more to come" },
        call("read", "streamed"),
      ]),
    );
    for (const event of events.slice(0, -3)) apply(event);
  }
}

/**
 * A long session: `turns` turns of a question, an assistant message with text and a tool call, its tool result and
 * an answer in Markdown (4 messages a turn: 500 turns make the 2,000 messages of issue #21's long-session goal).
 */
export function longHistory(turns: number): unknown[] {
  const messages: unknown[] = [];
  for (let i = 0; i < turns; i++) {
    const id = `call_${i}`;
    messages.push({ role: "user", content: `Question ${i}: what is in file-${i}.txt?`, timestamp: i });
    messages.push(
      assistant([
        { type: "text", text: `Reading **file-${i}.txt**.` },
        { type: "toolCall", id, name: "read", arguments: { path: `file-${i}.txt` } },
      ]),
    );
    messages.push({
      role: "toolResult",
      toolCallId: id,
      toolName: "read",
      content: [{ type: "text", text: `line one of file ${i}\nline two\nline three` }],
      isError: false,
      timestamp: i,
    });
    messages.push(assistant([{ type: "text", text: `File ${i} has three lines:\n\n- one\n- two\n- three` }]));
  }
  return messages;
}
