/**
 * The demo's scripted model: what the OpenAI-compatible server of test/support/scripted-model.ts answers when
 * `scripts/demo.sh` runs pi without an API key. Each reply is chosen from the conversation pi sends (not from a
 * request count), so reloading the page, a follow-up, or a new session all get a sensible answer:
 *
 * - the user's latest message picks the turn, by its words (the live page suggests these: prompts.ts);
 * - the number of assistant messages since that message is the step within the turn, and the last tool result
 *   (what pi really ran, in its throwaway working directory) is quoted back where the answer needs it.
 *
 * The turns: look around and make greet() friendlier (thinking, bash, an edit with a diff, bash again, an answer with
 * a code block and a table), add a test (write, run it), clean up the build folder (a bash `rm` that the showcase
 * extension's permission gate asks the user about), and a reply to anything else. Replies stream a few characters
 * at a time at `pace` milliseconds apart, so a person can watch them arrive.
 */
import type { ChatRequest, ScriptedReply } from "../../test/support/scripted-model.js";

/** The tiny project pi works in: file path → content. */
export const SEED_FILES: Readonly<Record<string, string>> = {
  "README.md": "# tiny-greeter\n\nA tiny project for the pi-elements demo: `node main.js NAME` greets NAME.\n",
  "package.json": `${JSON.stringify({ name: "tiny-greeter", private: true, type: "module", scripts: { test: "node --test" } }, null, 2)}\n`,
  "greet.js": 'export function greet(name) {\n  return "Hello, " + name;\n}\n',
  "main.js": 'import { greet } from "./greet.js";\n\nconsole.log(greet(process.argv[2] ?? "world"));\n',
  "build/bundle.js": "// an old build output, safe to delete\n",
};

type Turn = "friendlier" | "test" | "cleanup" | "help" | "other";

/** Which turn a user message asks for. */
export function turnFor(message: string): Turn {
  const text = message.toLowerCase();
  if (/\btests?\b/.test(text)) return "test";
  if (/clean|build folder|\brm\b|delete/.test(text)) return "cleanup";
  if (/friendl|greet|look around/.test(text)) return "friendlier";
  if (/what can you|help|who are you/.test(text)) return "help";
  return "other";
}

/** The text of a message's content (a string, or OpenAI's array of parts). */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (typeof part === "object" && part !== null && "text" in part ? String(part.text) : ""))
      .join("");
  }
  return "";
}

/** The conversation's position: the latest user message, the step within its turn, the last tool result. */
function position(request: ChatRequest): { message: string; step: number; toolOutput: string } {
  const messages = request.messages;
  let last = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === "user") {
      last = i;
      break;
    }
  }
  const after = messages.slice(last + 1);
  const tool = after.filter((m) => m.role === "tool").at(-1);
  return {
    message: last >= 0 ? textOf(messages[last]?.content) : "",
    step: after.filter((m) => m.role === "assistant").length,
    toolOutput: textOf(tool?.content).trim(),
  };
}

/** The tool output as a Markdown code block (its fence longer than any backtick run inside it). */
function fenced(output: string, language = ""): string {
  const longest = Math.max(2, ...Array.from(output.matchAll(/`+/g), (m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${language}\n${output || "(no output)"}\n${fence}`;
}

const TEST_FILE = `import assert from "node:assert/strict";
import { test } from "node:test";
import { greet } from "./greet.js";

test("greet() greets by name", () => {
  assert.match(greet("pi"), /pi/);
});
`;

function friendlier(step: number, toolOutput: string): ScriptedReply {
  switch (step) {
    case 0:
      return {
        thinking:
          "The user wants greet() to be friendlier. I don't know this project yet: list the files and read greet.js before changing anything.",
        text: "I'll look around first.",
        toolCalls: [{ name: "bash", arguments: { command: "ls -1 && cat greet.js" } }],
      };
    case 1:
      return {
        thinking: "greet() concatenates strings. A template literal reads better, and the text can be warmer.",
        text: [
          "This is a tiny ES module project. `greet.js` builds its greeting by concatenation:",
          "",
          "```js",
          "export function greet(name) {",
          '  return "Hello, " + name;',
          "}",
          "```",
          "",
          "I'll switch it to a template literal and make it warmer.",
        ].join("\n"),
        toolCalls: [
          {
            name: "edit",
            arguments: {
              path: "greet.js",
              edits: [
                // biome-ignore lint/suspicious/noTemplateCurlyInString: the new code is a template literal, as text.
                { oldText: '  return "Hello, " + name;', newText: "  return `Hello, ${name}! Nice to see you.`;" },
              ],
            },
          },
        ],
      };
    case 2:
      return {
        text: "Now let me run it to check.",
        toolCalls: [{ name: "bash", arguments: { command: "node main.js pi" } }],
      };
    default:
      return {
        text: [
          "Done. **`greet()`** is friendlier now; `node main.js pi` prints:",
          "",
          fenced(toolOutput),
          "",
          "| file | change |",
          "|---|---|",
          "| `greet.js` | a template literal, and a warmer greeting |",
          "",
          "Next, ask me to *add a test*, or try an extension command such as `/pick`.",
        ].join("\n"),
      };
  }
}

function test(step: number, toolOutput: string): ScriptedReply {
  switch (step) {
    case 0:
      return {
        thinking: "Node has a test runner built in (node:test), so the test needs no dependency.",
        text: "I'll add a test with Node's built-in runner.",
        toolCalls: [{ name: "write", arguments: { path: "greet.test.js", content: TEST_FILE } }],
      };
    case 1:
      return { text: "Running it:", toolCalls: [{ name: "bash", arguments: { command: "node --test" } }] };
    default: {
      const summary = toolOutput
        .split("\n")
        .filter((line) => /^(ℹ|#) (tests|pass|fail)\b/.test(line))
        .join("\n");
      return {
        text: [
          "The test is in `greet.test.js`, and `node --test` says:",
          "",
          fenced(summary || toolOutput),
          "",
          "```js",
          TEST_FILE.trimEnd(),
          "```",
        ].join("\n"),
      };
    }
  }
}

function cleanup(step: number, toolOutput: string): ScriptedReply {
  if (step === 0) {
    return {
      thinking: "Deleting files: the showcase extension asks the user before any rm, so this waits for their answer.",
      text: "I'll delete the old build output.",
      toolCalls: [{ name: "bash", arguments: { command: "rm -rf build && ls -1" } }],
    };
  }
  const blocked = /blocked|denied|said no/i.test(toolOutput);
  return {
    text: blocked
      ? `You said no, so nothing was deleted. pi told me:\n\n${fenced(toolOutput)}`
      : `The build folder is gone. What is left:\n\n${fenced(toolOutput)}`,
  };
}

const HELP = [
  "I'm the demo's **scripted model**: no API key, no network. My replies are scripted, but the tools I call are real:",
  "pi runs them in a throwaway folder with a tiny project in it.",
  "",
  "- *Make greet() friendlier*: I read the code, edit it (you'll see the diff) and run it.",
  "- *Add a test*: I write a test file and run `node --test`.",
  "- *Clean up the build folder*: I run `rm`, and the showcase extension asks you first.",
  "",
  "Slash commands such as `/pick`, `/gate` or `/two` open the extension's dialogs. To talk to a real model, start",
  "the demo with `bash scripts/demo.sh --real`.",
].join("\n");

/** The reply to `request`; `pace` is the milliseconds between two streamed chunks. */
export function demoReply(request: ChatRequest, pace: number): ScriptedReply {
  const { message, step, toolOutput } = position(request);
  const turn = turnFor(message);
  let reply: ScriptedReply;
  if (turn === "friendlier") reply = friendlier(step, toolOutput);
  else if (turn === "test") reply = test(step, toolOutput);
  else if (turn === "cleanup") reply = cleanup(step, toolOutput);
  else if (turn === "help") reply = { text: HELP };
  else {
    const quoted = message.trim().split("\n").slice(0, 5).join("\n> ");
    reply = {
      thinking: "This is not one of the scripted turns. Say so, and say what is.",
      text: `You wrote:\n\n> ${quoted || "(nothing)"}\n\nI only know a few scripted turns. ${HELP}`,
    };
  }
  // Usage as a real provider reports it (about four characters a token), so the footer's numbers move.
  const completion = Math.ceil(
    ((reply.thinking ?? "").length + (reply.text ?? "").length + JSON.stringify(reply.toolCalls ?? []).length) / 4,
  );
  return {
    ...reply,
    delayMs: pace,
    usage: { prompt_tokens: Math.ceil(JSON.stringify(request.messages).length / 4), completion_tokens: completion },
  };
}
