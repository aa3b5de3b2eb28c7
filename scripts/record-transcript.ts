/**
 * Records a conformance transcript from the real pi 0.73.1 (the devDependency in node_modules) running its own
 * `examples/extensions/rpc-demo.ts` in RPC mode. Every command used needs no model and no API key.
 *
 * Re-run (from the repository root):   node --import tsx scripts/record-transcript.ts
 *
 * Writes, in test/fixtures/pi/:
 * - rpc-demo.transcript.jsonl: pi's stdout, byte for byte;
 * - rpc-demo.sent.json: every line written to pi's stdin, each with `afterRecords`, the number of stdout records
 *   that had arrived when it was written (the conformance test replays both directions in that order).
 *
 * pi runs with a throw-away HOME and PI_CODING_AGENT_DIR, --no-session, offline, and with discovery of
 * extensions, skills, prompt templates, themes and context files off, so nothing of the machine leaks in and
 * ~/.pi is never touched. A new recording differs from the committed one only in the UUIDs (request ids and
 * get_state's sessionId); the conformance test does not depend on them.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { JsonlDecoder } from "../packages/core/src/codec/jsonl.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const piPackage = join(root, "node_modules/@mariozechner/pi-coding-agent");
const piBin = join(piPackage, JSON.parse(readFileSync(join(piPackage, "package.json"), "utf8")).bin.pi as string);
const extension = join(piPackage, "examples/extensions/rpc-demo.ts");
const outDir = join(root, "test/fixtures/pi");
const STEP_TIMEOUT_MS = 20_000;

type Message = Record<string, unknown>;
type DialogAnswer = { value: string } | { confirmed: boolean } | { cancelled: true };

interface Step {
  /** A command object, or a raw line (to record how pi answers a line that is not JSON). */
  send: Message | string;
  /** How to answer each dialog request that arrives during this step, in order. */
  answers?: DialogAnswer[];
  /** The step is over when this record arrives. */
  until: (message: Message) => boolean;
}

const responseTo = (id: string) => (m: Message) => m.type === "response" && m.id === id;

/** Each dialog rpc-demo can open without a model, answered every way its method allows. */
const steps: Step[] = [
  { send: { id: "c1", type: "get_commands" }, until: responseTo("c1") },
  { send: { id: "c2", type: "get_state" }, until: responseTo("c2") },
  // Text that strict framing must keep whole: U+2028/U+2029, CJK, an emoji, a CR and markup.
  {
    send: { id: "c3", type: "prompt", message: "/rpc-input" },
    answers: [{ value: "héllo 世界 🎉 \u2028line\u2029para\r <b>x</b>" }],
    until: responseTo("c3"),
  },
  {
    send: { id: "c4", type: "prompt", message: "/rpc-input" },
    answers: [{ cancelled: true }],
    until: responseTo("c4"),
  },
  {
    send: { id: "c5", type: "prompt", message: "/rpc-editor" },
    answers: [{ value: "Line 1\nLine 2 edited\nLine 3\nLine 4" }],
    until: responseTo("c5"),
  },
  { send: { id: "c6", type: "prompt", message: "/rpc-prefill" }, until: responseTo("c6") },
  // new_session asks the extension's session_before_switch hook: a confirm, declined, so the session stays.
  { send: { id: "c7", type: "new_session" }, answers: [{ confirmed: false }], until: responseTo("c7") },
  { send: "this line is not JSON", until: (m) => m.type === "response" && m.command === "parse" },
];

const home = mkdtempSync(join(tmpdir(), "pi-record-"));
const stdoutChunks: Buffer[] = [];
const sent: Array<{ afterRecords: number; line: string }> = [];
const records: Message[] = [];
let waiter: { until: (m: Message) => boolean; resolve: () => void } | undefined;
let answers: DialogAnswer[] = [];

const child: ChildProcess = spawn(
  process.execPath,
  [
    piBin,
    "--mode",
    "rpc",
    "--no-session",
    "--offline",
    "--no-extensions",
    "--no-skills",
    "--no-prompt-templates",
    "--no-themes",
    "--no-context-files",
    "-e",
    extension,
  ],
  {
    cwd: home,
    env: { PATH: process.env.PATH, HOME: home, PI_CODING_AGENT_DIR: join(home, "agent"), PI_TELEMETRY: "0" },
    stdio: ["pipe", "pipe", "pipe"],
  },
);
let stderr = "";
child.stderr!.on("data", (data: Buffer) => {
  stderr += data.toString("utf8");
});

function write(line: string): void {
  sent.push({ afterRecords: records.length, line });
  child.stdin!.write(`${line}\n`);
}

const decoder = new JsonlDecoder({
  onRecord(line) {
    const message = JSON.parse(line) as Message;
    records.push(message);
    if (
      message.type === "extension_ui_request" &&
      ["select", "confirm", "input", "editor"].includes(message.method as string)
    ) {
      const answer = answers.shift();
      if (!answer) throw new Error(`No answer planned for dialog: ${line}`);
      write(JSON.stringify({ type: "extension_ui_response", id: message.id, ...answer }));
    }
    if (waiter?.until(message)) {
      const { resolve } = waiter;
      waiter = undefined;
      resolve();
    }
  },
  onDiagnostic(diagnostic) {
    throw new Error(`pi wrote a line the codec rejects: ${diagnostic.message}`);
  },
});
child.stdout!.on("data", (data: Buffer) => {
  stdoutChunks.push(data);
  decoder.push(data);
});

function waitFor(until: (m: Message) => boolean, what: string): Promise<void> {
  const seen = records.find(until);
  if (seen) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`Timed out waiting for ${what}. stderr:\n${stderr}`)),
      STEP_TIMEOUT_MS,
    );
    waiter = {
      until,
      resolve: () => {
        clearTimeout(timer);
        resolve();
      },
    };
  });
}

try {
  // session_start sets the title, the widget and then the status: the extension is ready after the status.
  await waitFor((m) => m.method === "setStatus", "the extension's session_start");
  for (const step of steps) {
    answers = [...(step.answers ?? [])];
    const done = waitFor(step.until, JSON.stringify(step.send));
    write(typeof step.send === "string" ? step.send : JSON.stringify(step.send));
    await done;
    if (answers.length > 0) throw new Error(`Planned answers not used in step ${JSON.stringify(step.send)}`);
  }
  child.stdin!.end();
  await new Promise((resolve) => child.once("exit", resolve));
  decoder.end();
  writeFileSync(join(outDir, "rpc-demo.transcript.jsonl"), Buffer.concat(stdoutChunks));
  const argv = child.spawnargs.slice(2).map((arg) => arg.replace(piPackage, "<pi>"));
  writeFileSync(join(outDir, "rpc-demo.sent.json"), `${JSON.stringify({ pi: "0.73.1", argv, sent }, null, 2)}\n`);
  console.log(`Recorded ${records.length} records and ${sent.length} sent lines into ${outDir}`);
} finally {
  if (child.exitCode === null) child.kill();
  rmSync(home, { recursive: true, force: true });
}
