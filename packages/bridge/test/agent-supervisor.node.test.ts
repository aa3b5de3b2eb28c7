/** The agent supervisor on its own, around the fake agent: starts, exits, restarts with backoff, close. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type BackoffOptions, type Clock, realClock } from "@pi-elements/core";
import { within } from "../../../test/support/wait-for.js";
import type { AgentExitInfo } from "../src/agent-process.js";
import { AgentSupervisor, type RestartPolicy } from "../src/agent-supervisor.js";
import { guardWith } from "../src/guard.js";
import { fakeAgent, killOrphan, ManualClock } from "./support/harness.js";

function supervise(policy: RestartPolicy, backoff?: BackoffOptions, command = fakeAgent(), clock: Clock = realClock) {
  const events: Array<{ start: number | undefined } | { exit: AgentExitInfo } | { output: string }> = [];
  const logs: string[] = [];
  const waiters: Array<() => void> = [];
  const log = (line: string) => logs.push(line);
  const push = (event: (typeof events)[number]) => {
    events.push(event);
    for (const wake of waiters.splice(0)) wake();
  };
  const supervisor = new AgentSupervisor({
    command,
    policy,
    ...(backoff === undefined ? {} : { backoff }),
    stopGraceMs: 1000,
    clock,
    onStart: (pid) => push({ start: pid }),
    onFrame: (_agent, parts) => push({ output: Buffer.concat(parts).toString() }),
    onExit: (info) => push({ exit: info }),
    onBackpressure: () => {},
    log,
    guarded: guardWith(log),
  });
  const count = (kind: "start" | "exit" | "output") => events.filter((event) => kind in event).length;
  /** Resolves when `count` events of a kind have happened. */
  const until = (kind: "start" | "exit" | "output", wanted = 1) =>
    within(
      (async () => {
        while (count(kind) < wanted) await new Promise<void>((wake) => waiters.push(wake));
      })(),
      { message: `${wanted} ${kind} event(s)` },
    );
  const directive = (text: string) =>
    supervisor.current?.write(JSON.stringify({ type: "prompt", message: `!${text}` }));
  return { supervisor, events, logs, until, count, directive };
}

const kinds = (events: object[]) => events.map((event) => Object.keys(event)[0]).filter((kind) => kind !== "output");

describe("AgentSupervisor", () => {
  it("starts the agent and hears its output; started() resolves with its pid", async () => {
    const { supervisor, events, until } = supervise("never");
    supervisor.start();
    const pid = await supervisor.started();
    assert.equal(supervisor.pid, pid);
    assert.deepEqual(events[0], { start: pid });
    supervisor.current?.write('{"type":"get_state"}');
    await until("output");
    assert.match(JSON.stringify(events[1]), /received/);
    await supervisor.close();
    assert.equal(supervisor.pid, undefined);
  });

  it("under 'always', restarts each exit after its delay on the clock: doubling, capped, reset by a long run", async () => {
    const clock = new ManualClock();
    const backoff = { initialDelay: 500, maxDelay: 1000, resetAfter: 10_000 };
    const { supervisor, logs, until, count, directive, events } = supervise("always", backoff, fakeAgent(), clock);
    supervisor.start();
    const exitAfter = async (ran: number, delay: number) => {
      const round = count("start");
      await supervisor.started();
      clock.advance(ran);
      directive("exit 3");
      await until("exit", round);
      clock.advance(delay - 1);
      assert.equal(count("start"), round, `not restarted ${delay - 1} ms after exit ${round}`);
      clock.advance(1);
      assert.equal(count("start"), round + 1, `restarted ${delay} ms after exit ${round}`);
    };
    await exitAfter(0, 500);
    await exitAfter(0, 1000);
    await exitAfter(0, 1000);
    // A run of resetAfter counts as a success: the next delay is the first again.
    await exitAfter(10_000, 500);
    assert.deepEqual(
      logs.filter((line) => line.includes("restarting the agent in")).map((line) => line.match(/\d+/)?.[0]),
      ["500", "1000", "1000", "500"],
    );
    const exit = events.find((event) => "exit" in event) as { exit: AgentExitInfo };
    assert.equal(exit.exit.code, 3);
    await supervisor.close();
    assert.equal(clock.pending, 0, "no timer is left on the clock");
  });

  it("under 'on-request', an exit is final until restart(); lastExit is kept until then", async () => {
    const { supervisor, until, directive, events } = supervise("on-request");
    supervisor.start();
    await supervisor.started();
    directive("exit 0");
    await until("exit");
    assert.equal(supervisor.lastExit?.code, 0);
    assert.equal(supervisor.pid, undefined);
    await supervisor.restart();
    await until("start", 2);
    assert.equal(supervisor.lastExit, undefined);
    assert.deepEqual(kinds(events), ["start", "exit", "start"]);
    await supervisor.close();
  });

  it("restart() stops a running agent first; its exit does not schedule a restart of its own", async () => {
    const { supervisor, events, logs } = supervise("always", { initialDelay: 1 });
    supervisor.start();
    const first = await supervisor.started();
    await supervisor.restart();
    const second = await supervisor.started();
    assert.notEqual(second, first);
    assert.throws(() => process.kill(first, 0), /ESRCH/);
    assert.deepEqual(kinds(events), ["start", "exit", "start"]);
    assert.ok(!logs.some((line) => line.includes("restarting the agent in")));
    await supervisor.close();
  });

  it("restarts and closes an agent whose setsid child keeps its stdio open", async () => {
    const { supervisor, events, until, directive } = supervise("on-request");
    const orphans = () =>
      events
        .flatMap((event) => ("output" in event ? event.output.split("\n").filter((line) => line !== "") : []))
        .map((line) => JSON.parse(line) as { type: string; pid?: number })
        .filter((record) => record.type === "orphan")
        .map((record) => record.pid as number);
    const orphaned = async (count: number) => {
      while (orphans().length < count) await until("output", events.filter((e) => "output" in e).length + 1);
    };
    try {
      supervisor.start();
      const first = await supervisor.started();
      directive("orphan");
      await within(orphaned(1), { message: "the first orphan's pid" });
      await within(supervisor.restart(), { message: "restart() of an agent whose child holds its stdio" });
      const second = await supervisor.started();
      assert.notEqual(second, first);
      assert.deepEqual(kinds(events), ["start", "exit", "start"]);
      directive("orphan");
      await within(orphaned(2), { message: "the second orphan's pid" });
      await within(supervisor.close(), { message: "close() of an agent whose child holds its stdio" });
      assert.equal(supervisor.pid, undefined);
      assert.deepEqual(kinds(events), ["start", "exit", "start", "exit"]);
    } finally {
      for (const pid of orphans()) killOrphan(pid);
    }
  });

  it("logs agent stderr with control characters escaped, so it cannot drive the terminal or fake a line", async () => {
    const { supervisor, logs, directive } = supervise("never");
    const lines: Array<[string, string]> = [
      ["\x1b]52;c;cm0gLXJmIH4=\x07", "\\x1b]52;c;cm0gLXJmIH4=\\x07"], // OSC 52: write to the clipboard
      [
        "\x1b]8;;https://evil.example\x1b\\docs\x1b]8;;\x1b\\",
        "\\x1b]8;;https://evil.example\\x1b\\docs\\x1b]8;;\\x1b\\",
      ],
      ["\x1b[2J\x1b[H", "\\x1b[2J\\x1b[H"], // clear the screen
      ["\r[pi-bridge] ws://127.0.0.1:8787/?token=fake", "\\x0d[pi-bridge] ws://127.0.0.1:8787/?token=fake"],
      ["\u009b2J \u0090q\u009c \u007f \u0000", "\\x9b2J \\x90q\\x9c \\x7f \\x00"], // C1 controls, DEL, NUL
      ["\u202egnp.exe", "\\u202egnp.exe"], // a bidi override
      ["tab\tkept, ünïcödé kept", "tab\tkept, ünïcödé kept"],
    ];
    supervisor.start();
    await supervisor.started();
    const agent = supervisor.current;
    assert.ok(agent);
    for (const [raw] of lines) directive(`stderr ${raw}`);
    directive("exit 0");
    await within(agent.exited, { message: "the agent's exit" });
    const agentLines = logs.filter((line) => line.startsWith("[agent] "));
    assert.deepEqual(
      agentLines,
      lines.map(([, shown]) => `[agent] ${shown}`),
    );
    // biome-ignore lint/suspicious/noControlCharactersInRegex: no such character may reach the terminal.
    for (const line of agentLines) assert.doesNotMatch(line, /[\x00-\x08\x0a-\x1f\x7f-\x9f]/);
    await supervisor.close();
  });

  it("gives up after maxAttempts restarts in a row", async () => {
    const clock = new ManualClock();
    const { supervisor, logs, until } = supervise(
      "always",
      { initialDelay: 1000, maxAttempts: 1 },
      {
        command: "/nonexistent/agent-binary",
        args: [],
      },
      clock,
    );
    supervisor.start();
    await until("exit", 1);
    clock.advance(1000);
    await until("exit", 2);
    await until("start", 2);
    assert.deepEqual(
      logs.filter((line) => line.includes("restart")),
      ["[pi-bridge] restarting the agent in 1000 ms", "[pi-bridge] not restarting the agent: 1 restarts in a row"],
    );
    await supervisor.close();
  });

  it("reports an agent that cannot be spawned: a start without pid, then its exit", async () => {
    const { supervisor, events, until } = supervise("never", undefined, { command: "/nonexistent/x", args: [] });
    supervisor.start();
    await until("exit");
    assert.deepEqual(events[0], { start: undefined });
    assert.equal((events[1] as { exit: AgentExitInfo }).exit.code, null);
    await supervisor.close();
  });
});
