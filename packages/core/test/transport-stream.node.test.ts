import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { Readable, Writable } from "node:stream";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import type { Diagnostic } from "../src/diagnostics.js";
import { StreamTransport } from "../src/transports/stream.js";
import { collect, nextValue, untilCount } from "./transport-support.js";

const echoScript = fileURLToPath(new URL("../../../test/fixtures/transports/jsonl-echo.mjs", import.meta.url));

function spawnEcho() {
  const child = spawn(process.execPath, [echoScript], { stdio: ["pipe", "pipe", "inherit"] });
  const transport = new StreamTransport({
    readable: Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
    writable: Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
  });
  return { child, transport };
}

/** A readable that yields the given chunks, then ends. */
function chunks(...parts: (string | Uint8Array)[]): ReadableStream<string | Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

test("stream: talks JSONL to a child process over its stdio, U+2028 and non-ASCII kept inside records", async () => {
  const { child, transport } = spawnEcho();
  const records = collect<string>(transport, "record");
  transport.send(JSON.stringify({ text: "line\u2028separator\u2029paragraph" }));
  transport.send(JSON.stringify({ text: "日本語 ✓" }));
  transport.send(JSON.stringify({ n: 3 }));
  await untilCount(transport, "record", records, 3);
  assert.deepEqual(
    records.map((r) => JSON.parse(r)),
    [{ echo: { text: "line\u2028separator\u2029paragraph" } }, { echo: { text: "日本語 ✓" } }, { echo: { n: 3 } }],
  );

  // close() ends the child's stdin, which is how the child knows to exit.
  const exited = once(child, "exit");
  transport.close();
  const [code] = await exited;
  assert.equal(code, 0);
  assert.equal(transport.state, "closed");
});

test("stream: the transport closes when the child's stdout ends", async () => {
  const { child, transport } = spawnEcho();
  const closed = nextValue(transport, "state", (state) => state === "closed");
  child.stdin.end();
  assert.equal(await closed, "closed");
});

test("stream: a UTF-8 character split across byte chunks and a U+2028 inside a record are decoded whole", async () => {
  const bytes = new TextEncoder().encode('{"t":"日\u2028本"}\n{"u":1}\r\n');
  const transport = new StreamTransport({
    readable: chunks(bytes.subarray(0, 7), bytes.subarray(7, 8), bytes.subarray(8)),
  });
  const records = collect<string>(transport, "record");
  await nextValue(transport, "state", (state) => state === "closed");
  assert.deepEqual(records, ['{"t":"日\u2028本"}', '{"u":1}']);
});

test("stream: text chunks work too, and a last line without LF is still a record", async () => {
  const transport = new StreamTransport({ readable: chunks('{"a":', '1}\n{"b"', ":2}") });
  const records = collect<string>(transport, "record");
  await nextValue(transport, "state", (state) => state === "closed");
  assert.deepEqual(records, ['{"a":1}', '{"b":2}']);
});

test("stream: a line over maxLineLength is dropped with a diagnostic and decoding goes on", async () => {
  const transport = new StreamTransport({ readable: chunks(`"${"x".repeat(50)}"\n{"ok":1}\n`), maxLineLength: 20 });
  const records = collect<string>(transport, "record");
  const diagnostics = collect<Diagnostic>(transport, "diagnostic");
  await nextValue(transport, "state", (state) => state === "closed");
  assert.deepEqual(records, ['{"ok":1}']);
  assert.deepEqual(
    diagnostics.map((d) => d.code),
    ["line-too-long"],
  );
});

test("stream: a failing readable closes the transport with a diagnostic", async () => {
  let pulls = 0;
  const readable = new ReadableStream<string>({
    pull(controller) {
      pulls += 1;
      if (pulls === 1) controller.enqueue('{"a":1}\n');
      else controller.error(new Error("pipe broke"));
    },
  });
  const transport = new StreamTransport({ readable });
  const records = collect<string>(transport, "record");
  const diagnostics = collect<Diagnostic>(transport, "diagnostic");
  await nextValue(transport, "state", (state) => state === "closed");
  assert.deepEqual(records, ['{"a":1}']);
  assert.match(diagnostics[0]?.message ?? "", /pipe broke/);
});

test("stream: writes wait for the writer's backpressure; held records stay queued and go out in order", async () => {
  const written: string[] = [];
  let release: () => void = () => {};
  let firstWriteStarted: () => void = () => {};
  const firstWrite = new Promise<void>((resolve) => (firstWriteStarted = resolve));
  const writable = new WritableStream<Uint8Array>(
    {
      write(chunk) {
        written.push(new TextDecoder().decode(chunk));
        if (written.length > 1) return;
        firstWriteStarted();
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      },
    },
    new CountQueuingStrategy({ highWaterMark: 1 }),
  );
  const transport = new StreamTransport({ readable: new ReadableStream(), writable });
  transport.send('{"n":1}');
  transport.send('{"n":2}');
  transport.send('{"n":3}');
  await firstWrite;
  // The first line is with the sink, which has not finished it: the writer is full, so 2 and 3 wait here.
  assert.equal(transport.queued, 2);
  assert.deepEqual(written, ['{"n":1}\n']);
  release();
  while (written.length < 3) await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(written, ['{"n":1}\n', '{"n":2}\n', '{"n":3}\n']);
  assert.equal(transport.queued, 0);
  transport.close();
});

test("stream: bad sends are diagnosed, never thrown: a record with a line feed, no writable, after close", () => {
  const writable = new WritableStream<Uint8Array>();
  const transport = new StreamTransport({ readable: new ReadableStream(), writable });
  const diagnostics = collect<Diagnostic>(transport, "diagnostic");
  transport.send('{"a":\n1}');
  transport.close();
  transport.close();
  transport.send('{"late":1}');
  const receiveOnly = new StreamTransport({ readable: new ReadableStream() });
  const receiveOnlyDiagnostics = collect<Diagnostic>(receiveOnly, "diagnostic");
  receiveOnly.send("{}");
  assert.deepEqual(
    diagnostics.map((d) => d.message),
    [
      "Record dropped: it contains a line feed, which would split it in two lines.",
      "Record dropped: the stream transport is closed.",
    ],
  );
  assert.deepEqual(
    receiveOnlyDiagnostics.map((d) => d.message),
    ["Record dropped: no writable stream."],
  );
  receiveOnly.close();
});

test("stream: the send queue is bounded; the oldest record is dropped with a diagnostic", async () => {
  const written: string[] = [];
  let release: () => void = () => {};
  const writable = new WritableStream<string>(
    {
      write(chunk) {
        written.push(chunk);
        if (written.length === 1) return new Promise<void>((resolve) => (release = resolve));
      },
    },
    new CountQueuingStrategy({ highWaterMark: 1 }),
  );
  const transport = new StreamTransport({ readable: new ReadableStream(), writable, writeAs: "text", maxQueue: 2 });
  const diagnostics = collect<Diagnostic>(transport, "diagnostic");
  transport.send("1");
  while (written.length < 1) await new Promise((resolve) => setImmediate(resolve));
  transport.send("2");
  transport.send("3");
  transport.send("4");
  assert.equal(diagnostics.length, 1);
  assert.equal(diagnostics[0]?.excerpt, "2");
  release();
  while (written.length < 3) await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(written, ["1\n", "3\n", "4\n"]);
  transport.close();
});
