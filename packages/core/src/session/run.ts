/**
 * Whether pi is working, decided once: `reduceRun(run, record)`, a pure function of the run so far and one record as
 * it came (pi's events, pi's answers, the bridge's messages). The session publishes its result in its snapshot
 * (`UiSnapshot.run`); the conversation store, every element and the bridge's turn keeper read that, or run this same
 * function over the same records.
 *
 * | record | the run |
 * |---|---|
 * | `agent_start` | working; a retry waited for has begun, the last run's abort is forgotten |
 * | `agent_end` without `willRetry` (pi 0.73) | not working: 0.73's run ends here |
 * | `agent_end` with `willRetry` (pi 1.x) | still working: 1.x refuses a prompt until `agent_settled` |
 * | `agent_settled` (pi 1.x) | not working |
 * | either end, aborted (`agent_settled.aborted`, or `agent_end`'s last message stopped as "aborted") | aborted, until the next run |
 * | `compaction_start` / `compaction_end` | compacting / not |
 * | `auto_retry_start` / `auto_retry_end` | waiting to retry (which attempt, how long) / not |
 * | the answer to `get_state` | working and compacting as pi says (`isStreaming`, `isCompacting`) |
 * | the answer to `new_session`, `switch_session`, `fork`, `clone`, not cancelled | the last run's abort and retry are forgotten |
 * | the bridge's `hello` (a connect) | idle: a run still going is in the replay that follows (its `agent_start`), one that ended while the page was away is not |
 * | the bridge's `agent_exit`, `agent_start` (a new pi process) | idle |
 *
 * Every other record returns the run it was given (the same object), so a caller can tell a change by identity, and a
 * streamed token costs a switch on its type.
 */

import { isObject } from "../values.js";

/**
 * What the agent is doing, in one word. "aborted" is idle after a run the user aborted (until the next run starts);
 * "retrying" waits for an automatic retry (`retry` says which attempt and how long).
 */
export type RunStatus = "idle" | "streaming" | "compacting" | "retrying" | "aborted";

export interface RetryWait {
  readonly attempt: number;
  readonly maxAttempts?: number;
  readonly delayMs?: number;
}

export interface RunState {
  /** compacting, else retrying, else streaming while working, else aborted or idle. */
  readonly status: RunStatus;
  /** pi is in a run: it refuses a prompt (a message steers or follows up instead) and Stop aborts it. */
  readonly working: boolean;
  /** pi compacts the session's context. */
  readonly compacting: boolean;
  /** pi waits to retry a failed request. */
  readonly retry?: RetryWait;
  /** The last run ended because it was aborted. */
  readonly aborted: boolean;
}

/** A record as it came: pi's event or answer, or a bridge message (only `type` and the fields below are read). */
export interface RunRecord {
  readonly type: string;
  readonly [field: string]: unknown;
}

export const IDLE_RUN: RunState = Object.freeze({ status: "idle", working: false, compacting: false, aborted: false });

/** The commands whose answer (when not cancelled) starts another session in the same pi. */
export const SESSION_CHANGING_COMMANDS: ReadonlySet<string> = new Set([
  "new_session",
  "switch_session",
  "fork",
  "clone",
]);

export function reduceRun(run: RunState, record: RunRecord): RunState {
  switch (record.type) {
    case "agent_start":
      return next(run, { working: true, aborted: false, retry: undefined });
    case "agent_end": {
      // 1.x says whether it retries, and ends its run at agent_settled; 0.73 says nothing and ends it here.
      const ends = typeof record.willRetry !== "boolean";
      return next(run, {
        working: ends ? false : run.working,
        aborted: run.aborted || lastStopReason(record.messages) === "aborted",
      });
    }
    case "agent_settled":
      return next(run, { working: false, aborted: record.aborted === true || run.aborted });
    case "compaction_start":
      return next(run, { compacting: true });
    case "compaction_end":
      return next(run, { compacting: false });
    case "auto_retry_start": {
      const maxAttempts = finite(record.maxAttempts);
      const delayMs = finite(record.delayMs);
      const retry: RetryWait = {
        attempt: finite(record.attempt) ?? 1,
        ...(maxAttempts === undefined ? {} : { maxAttempts }),
        ...(delayMs === undefined ? {} : { delayMs }),
      };
      return next(run, { retry });
    }
    case "auto_retry_end":
      return next(run, { retry: undefined });
    case "response":
      return onAnswer(run, record);
    case "pi-elements/hello":
    case "pi-elements/agent_exit":
    case "pi-elements/agent_start":
      return run === IDLE_RUN ? run : IDLE_RUN;
    default:
      return run;
  }
}

function onAnswer(run: RunState, record: RunRecord): RunState {
  if (record.success !== true || typeof record.command !== "string") return run;
  const data = isObject(record.data) ? record.data : {};
  if (record.command === "get_state") {
    return next(run, {
      ...(typeof data.isStreaming === "boolean" ? { working: data.isStreaming } : {}),
      ...(typeof data.isCompacting === "boolean" ? { compacting: data.isCompacting } : {}),
    });
  }
  if (SESSION_CHANGING_COMMANDS.has(record.command) && data.cancelled !== true) {
    return next(run, { aborted: false, retry: undefined });
  }
  return run;
}

type Facts = Omit<RunState, "status">;

/** `run` with `patch`: the same object when nothing changes. */
function next(run: RunState, patch: Partial<Facts>): RunState {
  const facts: Facts = {
    working: patch.working ?? run.working,
    compacting: patch.compacting ?? run.compacting,
    aborted: patch.aborted ?? run.aborted,
    retry: "retry" in patch ? patch.retry : run.retry,
  };
  if (
    facts.working === run.working &&
    facts.compacting === run.compacting &&
    facts.aborted === run.aborted &&
    sameRetry(facts.retry, run.retry)
  ) {
    return run;
  }
  const status: RunStatus = facts.compacting
    ? "compacting"
    : facts.retry
      ? "retrying"
      : facts.working
        ? "streaming"
        : facts.aborted
          ? "aborted"
          : "idle";
  return Object.freeze({
    status,
    working: facts.working,
    compacting: facts.compacting,
    aborted: facts.aborted,
    ...(facts.retry ? { retry: facts.retry } : {}),
  });
}

function sameRetry(a: RetryWait | undefined, b: RetryWait | undefined): boolean {
  return a === b || (a?.attempt === b?.attempt && a?.maxAttempts === b?.maxAttempts && a?.delayMs === b?.delayMs);
}

function lastStopReason(messages: unknown): unknown {
  const last = Array.isArray(messages) ? messages.at(-1) : undefined;
  return isObject(last) && last.role === "assistant" ? last.stopReason : undefined;
}

function finite(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
