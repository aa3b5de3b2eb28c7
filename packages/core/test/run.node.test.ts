import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { IDLE_RUN, type RunRecord, type RunState, reduceRun } from "../src/session/run.js";
import { CONVERSATION_SCENARIOS, CONVERSATION_VERSIONS, loadConversation } from "./conversation-fixtures.js";

/** The run after each record, from idle. */
function runOf(...records: RunRecord[]): RunState {
  return records.reduce(reduceRun, IDLE_RUN);
}

const aborted = { role: "assistant", content: [], stopReason: "aborted" };

describe("reduceRun: whether pi is working, decided once", () => {
  test("pi 0.73's run: agent_start to agent_end; an aborted last message leaves it aborted until the next run", () => {
    assert.equal(runOf({ type: "agent_start" }).status, "streaming");
    assert.equal(runOf({ type: "agent_start" }).working, true);
    assert.equal(runOf({ type: "agent_start" }, { type: "agent_end", messages: [] }).status, "idle");
    const stopped = runOf({ type: "agent_start" }, { type: "agent_end", messages: [aborted] });
    assert.deepEqual(stopped, { status: "aborted", working: false, compacting: false, aborted: true });
    assert.equal(reduceRun(stopped, { type: "agent_start" }).status, "streaming");
    assert.equal(
      runOf({ type: "agent_start" }, { type: "agent_end", messages: [] }, { type: "agent_start" }).aborted,
      false,
    );
  });

  test("pi 1.x's run: working past agent_end (with willRetry) until agent_settled, which may say it was aborted", () => {
    const ended = runOf({ type: "agent_start" }, { type: "agent_end", messages: [], willRetry: false });
    assert.equal(ended.working, true, "1.x refuses a prompt until agent_settled");
    assert.equal(reduceRun(ended, { type: "agent_settled" }).status, "idle");
    assert.equal(reduceRun(ended, { type: "agent_settled", aborted: true }).status, "aborted");
    const retried = runOf(
      { type: "agent_start" },
      { type: "agent_end", messages: [], willRetry: true },
      { type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 2000 },
    );
    assert.deepEqual(retried, {
      status: "retrying",
      working: true,
      compacting: false,
      aborted: false,
      retry: { attempt: 1, maxAttempts: 3, delayMs: 2000 },
    });
    const again = reduceRun(retried, { type: "agent_start" });
    assert.equal(again.status, "streaming");
    assert.equal(again.retry, undefined);
  });

  test("compaction and a retry wait show over the run; a retry's odd fields are left out", () => {
    const compacting = runOf({ type: "agent_start" }, { type: "compaction_start", reason: "threshold" });
    assert.equal(compacting.status, "compacting");
    assert.equal(compacting.working, true);
    assert.equal(reduceRun(compacting, { type: "compaction_end" }).status, "streaming");
    const odd = runOf({ type: "auto_retry_start", attempt: "2", maxAttempts: Number.NaN, delayMs: null });
    assert.deepEqual(odd.retry, { attempt: 1 });
    assert.equal(reduceRun(odd, { type: "auto_retry_end", success: false }).status, "idle");
  });

  test("get_state's answer says what pi does; a failed or other answer says nothing", () => {
    const answer = (command: string, data: unknown, success = true): RunRecord => ({
      type: "response",
      command,
      success,
      data,
    });
    assert.equal(runOf(answer("get_state", { isStreaming: true, isCompacting: false })).status, "streaming");
    assert.equal(runOf(answer("get_state", { isStreaming: false, isCompacting: true })).status, "compacting");
    const working = runOf({ type: "agent_start" });
    assert.equal(reduceRun(working, answer("get_state", { isStreaming: false })).working, false);
    assert.equal(reduceRun(working, answer("get_state", { isStreaming: "no" })), working, "not a boolean: unchanged");
    assert.equal(reduceRun(working, answer("get_state", { isStreaming: false }, false)), working);
    assert.equal(reduceRun(working, answer("get_state", null)), working);
    assert.equal(reduceRun(working, answer("get_messages", { isStreaming: false })), working);
  });

  test("a new, switched, forked or cloned session forgets the last run's abort and retry; a cancelled one does not", () => {
    const stopped = runOf({ type: "agent_start" }, { type: "agent_end", messages: [aborted] });
    for (const command of ["new_session", "switch_session", "fork", "clone"]) {
      const after = reduceRun(stopped, { type: "response", command, success: true, data: {} });
      assert.equal(after.status, "idle", command);
      const cancelled = { type: "response", command, success: true, data: { cancelled: true } };
      assert.equal(reduceRun(stopped, cancelled), stopped, `${command} cancelled`);
    }
  });

  test("the bridge's hello, agent_exit and a new pi process end whatever ran", () => {
    const busy = runOf({ type: "agent_start" }, { type: "compaction_start" }, { type: "auto_retry_start", attempt: 2 });
    for (const type of ["pi-elements/hello", "pi-elements/agent_exit", "pi-elements/agent_start"]) {
      assert.equal(reduceRun(busy, { type }), IDLE_RUN, type);
    }
    assert.equal(reduceRun(IDLE_RUN, { type: "pi-elements/hello" }), IDLE_RUN);
  });

  test("any other record, a streamed token above all, returns the same object", () => {
    const working = runOf({ type: "agent_start" });
    for (const type of ["message_update", "message_start", "turn_end", "tool_execution_start", "queue_update", "x"]) {
      assert.equal(reduceRun(working, { type }), working, type);
    }
    assert.equal(
      reduceRun(working, { type: "agent_start" }),
      working,
      "a second agent_start (1.x's retry) changes nothing",
    );
    assert.ok(Object.isFrozen(working));
  });

  test("over every recording of pi 0.73.1 and 1.6.0, pi is idle at the end and was working in between", () => {
    for (const version of CONVERSATION_VERSIONS) {
      for (const scenario of CONVERSATION_SCENARIOS) {
        const { records } = loadConversation(version, scenario);
        let run = IDLE_RUN;
        let worked = false;
        for (const record of records) {
          run = reduceRun(run, record as RunRecord);
          worked ||= run.working;
        }
        const prompted = records.some((record) => record.type === "agent_start");
        assert.equal(worked, prompted, `${version} ${scenario}: working during its run`);
        assert.equal(run.working, false, `${version} ${scenario}: idle at its end`);
        assert.equal(run.compacting, false, `${version} ${scenario}: not compacting at its end`);
      }
    }
  });
});
