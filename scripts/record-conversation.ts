/**
 * Records whole conversations from the real pi 0.73.1 and 1.6.0 in RPC mode, against the scripted
 * OpenAI-compatible model (test/support/scripted-model.ts): the fixtures every conversation reducer test runs on.
 *
 * Re-run (from the repository root):   node --import tsx scripts/record-conversation.ts [scenario ...]
 *
 * Writes, for each version and scenario, in test/fixtures/conversation/<version>/:
 * - <scenario>.jsonl: pi's stdout, byte for byte;
 * - <scenario>.sent.json: every line written to pi's stdin, each with `afterRecords`, the number of stdout records
 *   that had arrived when it was written (as test/fixtures/pi/rpc-demo.sent.json).
 * Every scenario ends with `get_messages`, `get_state` and `get_session_stats`, sent once pi is idle.
 *
 * Each recording is its own pi process with a throwaway HOME and PI_CODING_AGENT_DIR (holding only the models.json
 * that points at the scripted model and a settings.json with short retry delays and a small compaction keep window),
 * --no-session, offline, discovery of extensions, skills, prompt templates, themes and context files off, and an
 * environment of PATH, HOME, the agent dir, TZ=UTC and LANG=C.UTF-8 only, so nothing of the machine leaks in. The
 * tools act in a throwaway directory holding fixed files. What differs between two recordings: ids (request ids,
 * tool-call ids pi does not take from the model, session ids, dialog ids), timestamps, durations, the throwaway paths
 * (in 1.6.0's system message) and how many `tool_execution_update`s a bash command produces.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { JsonlDecoder } from "../packages/core/src/codec/jsonl.js";
import { PI_VERSIONS, type PiVersion, piScript } from "../test/support/real-pi.js";
import {
  type ChatRequest,
  piModelsJson,
  SCRIPTED_MODEL_ID,
  SCRIPTED_PROVIDER,
  type ScriptedReply,
  startScriptedModel,
} from "../test/support/scripted-model.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const outRoot = join(root, "test/fixtures/conversation");
const CUSTOM_EXTENSION = join(root, "test/fixtures/pi/extensions/custom-message.ts");
const STEP_TIMEOUT_MS = 30_000;

/** The files the tools find in their working directory. */
const WORK_FILES: Record<string, string> = {
  "notes.txt": "alpha\nbeta\ngamma\n",
  "src/greet.ts": 'export function greet(name: string): string {\n  return "Hello, " + name;\n}\n',
};

/** pi's settings: a quick automatic retry, and a compaction that keeps only the last turn. */
const SETTINGS = { retry: { enabled: true, maxRetries: 2, baseDelayMs: 100 }, compaction: { keepRecentTokens: 10 } };

const SYSTEM_PROMPT = "You are a coding assistant talking to a scripted test model.";

type Message = Record<string, unknown>;

interface Recorder {
  readonly version: PiVersion;
  readonly records: readonly Message[];
  /** Writes a command; its `id` is generated if missing. Returns the id. */
  send(command: Message): string;
  /** Resolves with the index of the first record at or after `from` that matches. */
  waitFor(what: string, until: (m: Message) => boolean, from?: number): Promise<number>;
  /** Resolves once pi is idle after the first record from `from` on that matches `after`. */
  settledAfter(what: string, after: (m: Message) => boolean, from?: number): Promise<number>;
}

interface Scenario {
  name: string;
  /** What the recording shows, for the README. */
  about: string;
  /** The model's replies, in order; `summary` answers the requests without tools (compaction's summaries). */
  replies: readonly ScriptedReply[];
  summary?: ScriptedReply;
  extension?: string;
  run(recorder: Recorder): Promise<void>;
}

const isResponse = (id: string) => (m: Message) => m.type === "response" && m.id === id;
const assistantSaid = (text: string) => (m: Message) =>
  m.type === "message_end" &&
  (m.message as { role?: string }).role === "assistant" &&
  JSON.stringify((m.message as { content?: unknown }).content).includes(text);

/** A prompt, answered by a turn whose last assistant message contains `marker`. */
async function promptTurn(r: Recorder, message: string, marker: string): Promise<void> {
  const from = r.records.length;
  const id = r.send({ type: "prompt", message });
  await r.waitFor(`the response to prompt ${id}`, isResponse(id), from);
  await r.settledAfter(`the reply containing ${JSON.stringify(marker)}`, assistantSaid(marker), from);
}

const MARKDOWN = [
  "## Plan",
  "",
  "1. Read `greet.ts`",
  "2. Add a **test**",
  "",
  "```ts",
  'greet("pi"); // "Hello, pi"',
  "```",
  "",
  "> Done when it passes.",
].join("\n");

const scenarios: Scenario[] = [
  {
    name: "text",
    about: "one prompt, a short plain-text answer in several deltas",
    replies: [{ text: "Hello! I am the scripted model. How can I help?" }],
    run: (r) => promptTurn(r, "Say hello", "How can I help?"),
  },
  {
    name: "markdown",
    about: "an answer in Markdown: heading, list, inline code, bold, a fenced code block, a quote",
    replies: [{ text: MARKDOWN }],
    run: (r) => promptTurn(r, "Plan the change in Markdown", "Done when it passes."),
  },
  {
    name: "thinking",
    about:
      "reasoning (`reasoning_content` deltas: a thinking block) before the text, with usage including cached tokens",
    replies: [
      {
        thinking: "The user wants a number. Six times seven is forty-two.",
        text: "The answer is 42.",
        usage: { prompt_tokens: 120, completion_tokens: 30, prompt_tokens_details: { cached_tokens: 100 } },
      },
    ],
    run: (r) => promptTurn(r, "What is six times seven?", "The answer is 42."),
  },
  {
    name: "tools",
    about:
      "tool calls pi really runs in its working directory, one per model reply: bash (streamed output), read, write, edit (details.diff), a read of a missing file (isError), then a final answer",
    replies: [
      {
        text: "Listing first.",
        toolCalls: [{ name: "bash", arguments: { command: "for i in 1 2 3; do echo line $i; sleep 0.2; done" } }],
      },
      { toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] },
      { toolCalls: [{ name: "write", arguments: { path: "out/todo.md", content: "# Todo\n\n- ship it\n" } }] },
      {
        toolCalls: [
          {
            name: "edit",
            arguments: {
              path: "src/greet.ts",
              edits: [{ oldText: '"Hello, " + name', newText: '"Hi, " + name + "!"' }],
            },
          },
        ],
      },
      { toolCalls: [{ name: "read", arguments: { path: "missing.txt" } }] },
      { text: "All four tools ran; missing.txt does not exist." },
    ],
    run: (r) => promptTurn(r, "Use your tools", "missing.txt does not exist."),
  },
  {
    name: "error",
    about: "a failing turn: the model answers HTTP 400 (not retried): the assistant message has stopReason error",
    replies: [{ httpError: { status: 400, message: "Bad request: the scripted model refuses this prompt" } }],
    run: async (r) => {
      const from = r.records.length;
      const id = r.send({ type: "prompt", message: "Please fail" });
      await r.waitFor(`the response to prompt ${id}`, isResponse(id), from);
      await r.settledAfter(
        "the failed assistant message",
        assistantEnd((m) => m.stopReason === "error"),
        from,
      );
    },
  },
  {
    name: "retry",
    about:
      "a turn that fails mid-stream (finish_reason network_error after some text), retried automatically (auto_retry_start/end), then answered",
    replies: [{ text: "Starting to answer", finishReason: "network_error" }, { text: "Second try worked." }],
    run: async (r) => {
      const from = r.records.length;
      const id = r.send({ type: "prompt", message: "Answer despite a flaky network" });
      await r.waitFor(`the response to prompt ${id}`, isResponse(id), from);
      // 0.73.1 sends auto_retry_end after the retried answer's message_end, before its agent_end.
      await r.waitFor("the retried answer", assistantSaid("Second try worked."), from);
      await r.settledAfter("auto_retry_end", (m) => m.type === "auto_retry_end", from);
    },
  },
  {
    name: "abort",
    about: "a slowly streamed answer aborted (`abort`) after a few deltas: stopReason aborted",
    replies: [
      {
        text: "This answer streams slowly so that it can be aborted long before it ends, which it will be.",
        delayMs: 150,
      },
    ],
    run: async (r) => {
      const from = r.records.length;
      const id = r.send({ type: "prompt", message: "Tell a long story" });
      await r.waitFor(`the response to prompt ${id}`, isResponse(id), from);
      await r.waitFor("a third text delta", nthTextDelta(3), from);
      const abortId = r.send({ type: "abort" });
      await r.waitFor("the abort's response", isResponse(abortId), from);
      await r.settledAfter(
        "the aborted message",
        assistantEnd((m) => m.stopReason === "aborted"),
        from,
      );
    },
  },
  {
    name: "abort-tool",
    about:
      "Stop twice where a tool call is cut: while the model streams a write call's arguments (pi runs no tool: the call ends with the aborted message), then while the bash tool runs `sleep 30` (pi ends the run: Command aborted)",
    replies: [
      {
        text: "Writing the file.",
        toolCalls: [{ name: "write", arguments: { path: "slow.txt", content: "slowly ".repeat(60) } }],
        delayMs: 40,
      },
      { toolCalls: [{ name: "bash", arguments: { command: "sleep 30" } }] },
    ],
    run: async (r) => {
      let from = r.records.length;
      let id = r.send({ type: "prompt", message: "Write a file slowly" });
      await r.waitFor(`the response to prompt ${id}`, isResponse(id), from);
      await r.waitFor(
        "the write call's arguments streaming",
        (m) =>
          m.type === "message_update" &&
          (m.assistantMessageEvent as { type?: string } | undefined)?.type === "toolcall_delta",
        from,
      );
      let abortId = r.send({ type: "abort" });
      await r.waitFor("the abort's response", isResponse(abortId), from);
      await r.settledAfter("the first run's end", (m) => m.type === "agent_end", from);
      from = r.records.length;
      id = r.send({ type: "prompt", message: "Wait for a while" });
      await r.waitFor(`the response to prompt ${id}`, isResponse(id), from);
      await r.waitFor("the bash tool's start", (m) => m.type === "tool_execution_start", from);
      abortId = r.send({ type: "abort" });
      await r.waitFor("the abort's response", isResponse(abortId), from);
      await r.settledAfter("the second run's end", (m) => m.type === "agent_end", from);
    },
  },
  {
    name: "steer",
    about:
      "while an answer streams slowly: a steer (`prompt` with streamingBehavior steer) and a follow-up (`follow_up`): queue_update, then both delivered, each answered",
    replies: [
      { text: "Counting: one, two, three, four, five.", delayMs: 120 },
      { text: "Steered: blue it is." },
      { text: "Follow-up: goodbye." },
    ],
    run: async (r) => {
      const from = r.records.length;
      const id = r.send({ type: "prompt", message: "Count to five slowly" });
      await r.waitFor(`the response to prompt ${id}`, isResponse(id), from);
      await r.waitFor("a first text delta", nthTextDelta(1), from);
      const steer = r.send({ type: "prompt", message: "Mention blue", streamingBehavior: "steer" });
      await r.waitFor("the steer's response", isResponse(steer), from);
      const followUp = r.send({ type: "follow_up", message: "Then say goodbye" });
      await r.waitFor("the follow-up's response", isResponse(followUp), from);
      await r.settledAfter("the follow-up's answer", assistantSaid("goodbye."), from);
    },
  },
  {
    name: "compaction",
    about:
      "two turns, then `compact`: compaction_start/end, the summary comes from the model, get_messages starts with a compactionSummary",
    replies: [{ text: "Noted: the project is called Lumen." }, { text: "Noted: it targets the web." }],
    summary: { text: "## Goal\nThe user describes the Lumen project, a web app.\n\n## Progress\nNothing built yet." },
    run: async (r) => {
      await promptTurn(r, "The project is called Lumen.", "called Lumen.");
      await promptTurn(r, "It targets the web.", "targets the web.");
      const from = r.records.length;
      const id = r.send({ type: "compact" });
      await r.waitFor("compaction_end", (m) => m.type === "compaction_end", from);
      await r.waitFor("the compact's response", isResponse(id), from);
    },
  },
  {
    name: "bash",
    about:
      "the user's own shell command (the `bash` command, no model): its output streams (1.6.0: bash_execution_update), get_messages holds a bashExecution message, then a turn that sees it",
    replies: [{ text: "The shell printed two lines." }],
    run: async (r) => {
      const from = r.records.length;
      const id = r.send({ type: "bash", command: "echo first; sleep 0.2; echo second" });
      await r.waitFor("the bash response", isResponse(id), from);
      await promptTurn(r, "What did the shell print?", "two lines.");
    },
  },
  {
    name: "custom",
    about:
      "an extension command (`/note`, test/fixtures/pi/extensions/custom-message.ts) that sends a hidden custom message and a shown one (display true, details) that triggers a turn",
    extension: CUSTOM_EXTENSION,
    replies: [{ text: "I see the build finished with 3 warnings." }],
    run: (r) => promptTurn(r, "/note", "3 warnings."),
  },
];

function assistantEnd(check: (message: Message) => boolean): (m: Message) => boolean {
  return (m) => m.type === "message_end" && (m.message as Message).role === "assistant" && check(m.message as Message);
}

function nthTextDelta(n: number): (m: Message) => boolean {
  let seen = 0;
  return (m) => {
    if (m.type !== "message_update") return false;
    if ((m.assistantMessageEvent as Message | undefined)?.type !== "text_delta") return false;
    seen++;
    return seen >= n;
  };
}

async function record(version: PiVersion, scenario: Scenario): Promise<{ records: number; bytes: number }> {
  const script = piScript(version);
  const replies = [...scenario.replies];
  let offScript = 0;
  const model = await startScriptedModel((request: ChatRequest) => {
    if ((request.tools?.length ?? 0) === 0 && scenario.summary !== undefined) return scenario.summary;
    const reply = replies.shift();
    // Answered with a 500 by the scripted model; the recording is refused below.
    if (reply === undefined) offScript++;
    return reply;
  });
  const home = mkdtempSync(join(tmpdir(), "pi-conversation-"));
  const agentDir = join(home, "agent");
  const work = join(home, "work");
  mkdirSync(agentDir, { recursive: true });
  for (const [path, content] of Object.entries(WORK_FILES)) {
    mkdirSync(join(work, path, ".."), { recursive: true });
    writeFileSync(join(work, path), content);
  }
  writeFileSync(join(agentDir, "models.json"), piModelsJson(model, { reasoning: true }));
  writeFileSync(join(agentDir, "settings.json"), JSON.stringify(SETTINGS));

  const args = [
    "--mode",
    "rpc",
    "--no-session",
    "--offline",
    "--no-extensions",
    "--no-skills",
    "--no-prompt-templates",
    "--no-themes",
    "--no-context-files",
    // pi's default prompt names where pi is installed (1.6.0 sends it in its system message): a short one of our own.
    "--system-prompt",
    SYSTEM_PROMPT,
    "--model",
    `${SCRIPTED_PROVIDER}/${SCRIPTED_MODEL_ID}`,
    ...(scenario.extension === undefined ? [] : ["-e", scenario.extension]),
  ];
  const child: ChildProcess = spawn(version.node, [script, ...args], {
    cwd: work,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      PI_CODING_AGENT_DIR: agentDir,
      PI_OFFLINE: "1",
      PI_TELEMETRY: "0",
      TZ: "UTC",
      LANG: "C.UTF-8",
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (data: Buffer) => {
    stderr += data.toString("utf8");
  });
  const stdoutChunks: Buffer[] = [];
  const records: Message[] = [];
  const sent: Array<{ afterRecords: number; line: string }> = [];
  const waiters = new Set<() => void>();
  let failure: Error | undefined;
  let exited = false;
  child.once("exit", () => {
    exited = true;
    for (const wake of waiters) wake();
  });

  const decoder = new JsonlDecoder({
    onRecord(line) {
      records.push(JSON.parse(line) as Message);
      for (const wake of waiters) wake();
    },
    onDiagnostic(diagnostic) {
      failure = new Error(`pi wrote a line the codec rejects: ${diagnostic.message}`);
    },
  });
  child.stdout?.on("data", (data: Buffer) => {
    stdoutChunks.push(data);
    decoder.push(data);
  });

  let nextId = 1;
  const recorder: Recorder = {
    version,
    records,
    send(command) {
      const id = typeof command.id === "string" ? command.id : `${scenario.name}-${nextId++}`;
      const line = JSON.stringify({ id, ...command });
      sent.push({ afterRecords: records.length, line });
      child.stdin?.write(`${line}\n`);
      return id;
    },
    waitFor(what, until, from = 0) {
      return new Promise((resolve, reject) => {
        let scanned = from;
        const check = () => {
          if (failure) return finish(() => reject(failure));
          for (; scanned < records.length; scanned++) {
            if (until(records[scanned] as Message)) {
              const index = scanned;
              return finish(() => resolve(index));
            }
          }
          if (exited) finish(() => reject(new Error(`pi exited while waiting for ${what}. stderr:\n${stderr}`)));
        };
        const timer = setTimeout(
          () => finish(() => reject(new Error(`Timed out waiting for ${what}. stderr:\n${stderr}`))),
          STEP_TIMEOUT_MS,
        );
        const finish = (settle: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          settle();
        };
        waiters.add(check);
        check();
      });
    },
    async settledAfter(what, after, from = 0) {
      const at = await recorder.waitFor(what, after, from);
      // 1.6.0 says when no automatic work is left (agent_settled); 0.73.1's last word on a run is agent_end.
      const idle = version.version === "0.73.1" ? "agent_end" : "agent_settled";
      return recorder.waitFor(`${idle} after ${what}`, (m) => m.type === idle, at);
    },
  };

  try {
    // pi is ready when it answers a first command; the scenario's own first command serves.
    await scenario.run(recorder);
    const from = records.length;
    const ids = ["get_messages", "get_state", "get_session_stats"].map((type) => recorder.send({ type }));
    for (const id of ids) await recorder.waitFor(`the response to ${id}`, isResponse(id), from);
    if (offScript > 0) throw new Error(`pi made ${offScript} model requests the scenario has no reply for`);
    const unanswered = replies.length;
    if (unanswered > 0) throw new Error(`${unanswered} scripted replies were never requested`);
    child.stdin?.end();
    if (!exited) await new Promise((resolve) => child.once("exit", resolve));
    decoder.end();
    if (failure) throw failure;
    const dir = join(outRoot, version.version);
    mkdirSync(dir, { recursive: true });
    const stdout = Buffer.concat(stdoutChunks);
    writeFileSync(join(dir, `${scenario.name}.jsonl`), stdout);
    const argv = args.map((arg) => arg.replace(root, "<root>/"));
    writeFileSync(
      join(dir, `${scenario.name}.sent.json`),
      `${JSON.stringify({ pi: version.version, scenario: scenario.name, about: scenario.about, argv, sent }, null, 2)}\n`,
    );
    return { records: records.length, bytes: stdout.length };
  } catch (error) {
    const partial = join(tmpdir(), `pi-${version.version}-${scenario.name}.failed.jsonl`);
    writeFileSync(partial, Buffer.concat(stdoutChunks));
    console.error(`pi ${version.version} ${scenario.name} failed; its stdout so far is in ${partial}`);
    throw error;
  } finally {
    if (child.exitCode === null) child.kill();
    await model.close();
    rmSync(home, { recursive: true, force: true });
  }
}

const only = process.argv.slice(2);
const unknown = only.filter((name) => !scenarios.some((s) => s.name === name));
if (unknown.length > 0) throw new Error(`Unknown scenarios: ${unknown.join(", ")}`);
for (const version of PI_VERSIONS) {
  for (const scenario of scenarios) {
    if (only.length > 0 && !only.includes(scenario.name)) continue;
    const { records, bytes } = await record(version, scenario);
    console.log(`pi ${version.version} ${scenario.name}: ${records} records, ${bytes} bytes`);
  }
}
