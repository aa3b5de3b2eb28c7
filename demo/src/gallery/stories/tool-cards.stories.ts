/**
 * Stories for pi-tool-card: every built-in tool in every state, with the arguments and results pi 1.6.0 really sent
 * (test/fixtures/conversation/1.6.0/tools.jsonl), plus pi's preview caps, a failing command, hostile output and a
 * page's own renderer. The cards take plain data (`call`, `execution`); no agent is involved.
 */
import type { ToolExecution } from "@pi-elements/core/conversation";
import { registerToolRenderer, type ToolCallBlock } from "@pi-elements/elements/elements/tool-card.js";
import { html } from "lit";
import { type StoryContext, type StoryModule, story } from "../story.js";
import { error, MARKUP, success } from "./text.js";

const call = (name: string, args: Record<string, unknown>, complete = true): ToolCallBlock => ({
  type: "toolCall",
  id: `call-${name}`,
  name,
  arguments: args,
  complete,
});

function execution(name: string, fields: Partial<ToolExecution>): ToolExecution {
  return {
    toolCallId: `call-${name}`,
    toolName: name,
    args: {},
    status: "done",
    partialResult: undefined,
    result: undefined,
    isError: false,
    durationMs: undefined,
    parentToolCallId: undefined,
    startedAt: undefined,
    endedAt: undefined,
    ...fields,
  };
}

const text = (value: string) => ({ content: [{ type: "text", text: value }] });

const BASH = "for i in 1 2 3; do echo line $i; sleep 0.2; done";
const DIFF =
  ' 1 export function greet(name: string): string {\n-2   return "Hello, " + name;\n+2   return "Hi, " + name + "!";\n 3 }';
const numbered = (count: number, prefix = "line") =>
  Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}`).join("\n");

/**
 * A column of cards, each `[call, execution]`, timed on the story session's clock: a running card's elapsed time is
 * what that clock says (the bundle parity test freezes it, so both of its frames show the same time).
 */
const cards = (context: StoryContext, items: [ToolCallBlock, ToolExecution | undefined][], expanded: boolean) =>
  html`<div style="display: grid; gap: 0.5rem">
    ${items.map(
      ([c, e]) =>
        html`<pi-tool-card .call=${c} .execution=${e} .clock=${context.session.clock} ?expanded=${expanded}></pi-tool-card>`,
    )}
  </div>`;

let weatherRegistered = false;

export const toolCardStories: StoryModule = {
  id: "tool-card",
  title: "pi-tool-card",
  description:
    "A tool call as pi's TUI shows it: bash, read, write, edit, grep, find, ls and any other tool, from streaming arguments to done or failed.",
  stories: [
    story({
      name: "bash: streaming, running, done",
      description: "The command half written, waiting, running with its output so far, done with its exit code.",
      knobs: { expanded: { type: "boolean", value: false } },
      render: (context, args) =>
        cards(
          context,
          [
            [call("bash", { command: "for i in 1 2 3; do ec" }, false), undefined],
            [call("bash", { command: BASH }), undefined],
            [
              call("bash", { command: BASH }),
              execution("bash", { status: "running", partialResult: text("line 1\nline 2\n") }),
            ],
            [
              call("bash", { command: BASH }),
              execution("bash", { result: text("line 1\nline 2\nline 3\n"), durationMs: 622 }),
            ],
          ],
          args.expanded,
        ),
    }),
    story({
      name: "bash: long and failing output",
      description: 'The last 5 lines, "N earlier lines" to expand; a failing command\'s exit code; ANSI colours.',
      knobs: { expanded: { type: "boolean", value: false }, lines: { type: "number", value: 40, min: 1, max: 100000 } },
      render: (context, args) =>
        cards(
          context,
          [
            [
              call("bash", { command: `seq ${args.lines}` }),
              execution("bash", { result: text(numbered(args.lines)), durationMs: 40 }),
            ],
            [
              call("bash", { command: "npm test" }),
              execution("bash", {
                status: "error",
                isError: true,
                durationMs: 3400,
                result: text(
                  `${success("✓ 128 passed")}\n${error("✗ 2 failed")} src/greet.test.ts\n\nCommand exited with code 1`,
                ),
              }),
            ],
          ],
          args.expanded,
        ),
    }),
    story({
      name: "read, write, edit",
      description:
        "A file read, one written (content from the arguments), an edit's diff with the changed words marked, a failing read.",
      knobs: { expanded: { type: "boolean", value: false } },
      render: (context, args) =>
        cards(
          context,
          [
            [
              call("read", { path: "notes.txt" }),
              execution("read", { result: text("alpha\nbeta\ngamma\n"), durationMs: 5 }),
            ],
            [
              call("read", { path: "src/long.ts", offset: 1, limit: 40 }),
              execution("read", { result: text(numbered(40, "// line")) }),
            ],
            [
              call("write", { path: "out/todo.md", content: "# Todo\n\n- ship it\n" }),
              execution("write", { result: text("Successfully wrote to out/todo.md"), durationMs: 2 }),
            ],
            [
              call("edit", {
                path: "src/greet.ts",
                edits: [{ oldText: '"Hello, " + name', newText: '"Hi, " + name + "!"' }],
              }),
              execution("edit", {
                result: {
                  ...text("Successfully replaced 1 block(s) in src/greet.ts."),
                  details: { diff: DIFF, firstChangedLine: 2 },
                },
                durationMs: 6,
              }),
            ],
            [
              call("read", { path: "missing.txt" }),
              execution("read", {
                status: "error",
                isError: true,
                durationMs: 1,
                result: text("ENOENT: no such file or directory, access '/work/missing.txt'"),
              }),
            ],
          ],
          args.expanded,
        ),
    }),
    story({
      name: "grep, find, ls",
      description: 'pi\'s caps: grep 15 lines, find and ls 20, the rest behind "N more lines".',
      knobs: { expanded: { type: "boolean", value: false } },
      render: (context, args) =>
        cards(
          context,
          [
            [
              call("grep", { pattern: "TODO", path: "src", glob: "*.ts" }),
              execution("grep", { result: text(numbered(24, "src/a.ts:12: // TODO")), durationMs: 30 }),
            ],
            [
              call("find", { pattern: "*.md" }),
              execution("find", { result: text(numbered(26, "docs/page")), durationMs: 12 }),
            ],
            [
              call("ls", { path: "src" }),
              execution("ls", { result: text("a.ts\nb.ts\ncomponents/\n"), durationMs: 3 }),
            ],
          ],
          args.expanded,
        ),
    }),
    story({
      name: "Any other tool, and a page's renderer",
      description:
        "The generic card (arguments and result), and a tool whose card the page draws itself (registerToolRenderer).",
      knobs: {},
      render: (context) => {
        if (!weatherRegistered) {
          weatherRegistered = true;
          registerToolRenderer("weather", (_call, _execution, context) => html`<p>☀ ${context.text}</p>`, {
            subject: (args) => String(args.city ?? ""),
          });
        }
        return cards(
          context,
          [
            [
              call("web_search", { query: "lit element tutorial", limit: 3 }),
              execution("web_search", { result: text("1. lit.dev\n2. …") }),
            ],
            [
              call("weather", { city: "Paris" }),
              execution("weather", { result: text("sunny, 24 °C"), durationMs: 180 }),
            ],
          ],
          false,
        );
      },
    }),
    story({
      name: "Hostile output",
      description: "Markup in the command and the output stays text; 100,000 lines render only their tail.",
      knobs: { expanded: { type: "boolean", value: false } },
      render: (context, args) =>
        cards(
          context,
          [
            [call("bash", { command: MARKUP }), execution("bash", { result: text(`${MARKUP}\n${MARKUP}`) })],
            [call("bash", { command: "seq 100000" }), execution("bash", { result: text(numbered(100_000)) })],
          ],
          args.expanded,
        ),
    }),
  ],
};
