/**
 * The agent process on its own: backpressure on stdin, stopping (SIGTERM, then SIGKILL), the process group, stderr.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Clock } from "@pi-elements/core";
import { within } from "../../../test/support/wait-for.js";
import { type AgentExitInfo, AgentProcess } from "../src/agent-process.js";
import { FAKE_AGENT, killOrphan, ManualClock } from "./support/harness.js";

/** An agent with the fake script; `records` fills as stdout arrives, `waitFor` waits for a record. */
function fake(flags: string[] = [], extra: { highWaterMark?: number; stderrTailLines?: number; clock?: Clock } = {}) {
  const records: string[] = [];
  const batches: number[] = [];
  const backpressure: boolean[] = [];
  const stderr: string[] = [];
  let wake: () => void = () => {};
  const agent = new AgentProcess({
    command: process.execPath,
    args: [FAKE_AGENT, ...flags],
    onFrame: (parts) => {
      const batch = Buffer.concat(parts).toString("utf8").split("\n").slice(0, -1);
      records.push(...batch);
      batches.push(batch.length);
      wake();
    },
    onStderrLine: (line) => stderr.push(line),
    onBackpressure: (blocked) => backpressure.push(blocked),
    onExit: () => wake(),
    ...extra,
  });
  const waitFor = async (match: (record: Record<string, unknown>) => boolean) => {
    for (;;) {
      const found = records.map((r) => JSON.parse(r) as Record<string, unknown>).find(match);
      if (found) return found;
      if (!agent.running) throw new Error("the agent exited");
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  };
  const prompt = (message: string) => agent.write(JSON.stringify({ type: "prompt", message }));
  return { agent, records, batches, backpressure, stderr, waitFor, prompt };
}

const gone = (pid: number) => {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
};

describe("AgentProcess", () => {
  it("queues writes while the agent does not read, signals backpressure, and delivers everything in order", async () => {
    const f = fake([], { highWaterMark: 1024 * 1024 });
    await f.prompt("!hold");
    await f.waitFor((r) => r.type === "holding");
    const big = "x".repeat(64 * 1024);
    const count = 100;
    for (let i = 0; i < count; i++) f.agent.write(JSON.stringify({ type: "prompt", message: `${i} ${big}` }));
    // The pipe holds far less than 6.4 MB: the rest waits in the bridge, not in a blocked write.
    assert.ok(f.agent.queuedBytes > 1024 * 1024, `queued ${f.agent.queuedBytes} bytes`);
    assert.deepEqual(f.backpressure, [true]);
    process.kill(f.agent.pid as number, "SIGUSR2");
    await f.waitFor((r) => r.type === "received" && String(r.line).includes(`"${count - 1} x`));
    const received = f.records
      .map((r) => JSON.parse(r) as { type: string; line?: string })
      .filter((r) => r.type === "received" && r.line?.includes("xxxx"))
      .map((r) => (JSON.parse(r.line as string) as { message: string }).message.split(" ")[0]);
    assert.deepEqual(
      received,
      Array.from({ length: count }, (_, i) => String(i)),
    );
    assert.equal(f.agent.queuedBytes, 0);
    assert.deepEqual(f.backpressure, [true, false]);
    await f.agent.stop();
  });

  it("hands over each read as one batch of complete records", async () => {
    const f = fake();
    f.prompt("!burst 500");
    await f.waitFor((r) => r.id === "b500");
    assert.equal(f.records.length, 501);
    assert.ok(f.batches.length < 50, `${f.batches.length} batches`);
    await f.agent.stop();
  });

  it("stops an agent that ignores SIGTERM with SIGKILL after the grace period, on its clock", async () => {
    const clock = new ManualClock();
    const f = fake(["--ignore-sigterm", "--banner"], { clock });
    await f.waitFor((r) => r.type === "fake_ready");
    const stopping = f.agent.stop(3000);
    assert.deepEqual(clock.delays, [3000], "the grace period runs on the clock");
    clock.advance(3000);
    const info: AgentExitInfo = await within(stopping, { message: "the SIGKILL at the end of the grace period" });
    assert.equal(info.signal, "SIGKILL");
    assert.equal(f.agent.running, false);
  });

  it("stops the agent's own children with it (one process group)", async () => {
    const f = fake();
    f.prompt("!child");
    const child = await f.waitFor((r) => r.type === "child");
    const childPid = child.pid as number;
    assert.equal(gone(childPid), false);
    await f.agent.stop();
    // The group is signalled before stop() resolves; the child may need a moment to be reaped by init.
    for (let i = 0; i < 100 && !gone(childPid); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(gone(childPid), true, "no orphan left behind");
  });

  it("forwards stderr line by line and keeps only the last lines", async () => {
    const f = fake([], { stderrTailLines: 3 });
    for (let i = 1; i <= 5; i++) f.prompt(`!stderr line ${i}`);
    f.prompt("!exit 7");
    const info = await f.agent.exited;
    assert.equal(info.code, 7);
    assert.deepEqual(f.stderr, ["line 1", "line 2", "line 3", "line 4", "line 5"]);
    assert.deepEqual(info.stderrTail, ["line 3", "line 4", "line 5"]);
  });

  it("reports the exit of an agent whose setsid child keeps its stdio open, after the read window on its clock", async () => {
    const clock = new ManualClock();
    const f = fake([], { clock });
    let orphan: number | undefined;
    try {
      f.prompt("!orphan");
      orphan = (await f.waitFor((r) => r.type === "orphan")).pid as number;
      f.prompt("!stderr last words");
      f.prompt("!exit 3");
      // The process has exited (its read window is armed); the exit is reported when the window ends.
      await within(clock.armed(), { message: "the post-exit read window" });
      assert.deepEqual(clock.delays, [500]);
      clock.advance(499);
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(f.agent.finished, false, "the exit is not reported before the window ends");
      clock.advance(1);
      const info = await within(f.agent.exited, { message: "the exit report of an agent whose child holds its stdio" });
      assert.equal(info.code, 3);
      assert.equal(f.agent.running, false);
      // What the agent wrote before it exited was still delivered.
      assert.ok(f.records.some((r) => r.includes("!exit 3")));
      assert.deepEqual(info.stderrTail.slice(0, 1), ["last words"]);
      assert.match(info.stderrTail.join("\n"), /something it started still holds its stdout or stderr/);
      // The orphan lives on: it is outside the agent's process group.
      assert.equal(gone(orphan), false);
      assert.equal(await within(f.agent.stop(), { message: "stop() after the exit" }), info);
    } finally {
      killOrphan(orphan);
    }
  });

  it("ignores writes after the agent exited", async () => {
    const f = fake();
    f.prompt("!exit 0");
    await f.agent.exited;
    assert.doesNotThrow(() => f.agent.write('{"type":"get_state"}'));
    assert.equal(f.agent.queuedBytes, 0);
  });
});
