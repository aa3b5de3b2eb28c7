/**
 * The conversation with pi's semantics, free of any transport: it reduces agent events (already envelope-checked)
 * and command results into an immutable snapshot for renderers. `conversationOf(session)` makes one per session and
 * feeds it from its event path directly: no Event object is made per token. Whether pi is working is not decided
 * here: the session's run (`UiSnapshot.run`, run.ts) comes in through `setRun`.
 *
 * Cost: per `message_update` only the streaming message's working state changes (see streaming.ts); the committed
 * entries, tools and info keep their snapshot objects. A snapshot is built when read, at most once per batch, and
 * subscribers hear of a batch once, through `schedule`.
 *
 * The merge rule for a history (`get_messages`), written once here and in the README:
 * 1. The committed messages become the history's, in its order. A message equal to one held already (the same
 *    JSON) keeps its entry object, so an unchanged message keeps its identity.
 * 2. A message committed here (`message_end`) after the `get_messages` was sent that the history lacks (pi answered
 *    from a state before it) is kept, after the history's messages: nothing is lost, nothing doubled.
 * 3. The streaming message is not part of any history (pi's `get_messages` never holds it): it stays as it is, after
 *    the committed ones. Across a gap in the connection it is dropped instead (`dropStreaming`): deltas missed in the
 *    gap cannot be made up here. The pi-elements bridge replays it on connect (a `message_start` holding the message
 *    so far); without one, 0.73.1's next update carries the whole partial and brings it back, and on 1.6.0 it
 *    reappears with `message_end`.
 * 4. A notice (compaction, retry, extension error) stays after the message it followed; if that message is gone
 *    (a compaction dropped it), after the nearest earlier one that is still there.
 * 5. A tool run that the history answers (a `toolResult` message) is done (or error) with that result; a running
 *    one without it keeps running.
 * 6. A tool call of an assistant message that ended aborted or failed, with no tool run, ends with the message
 *    (`#endCutCalls`): pi will not run it.
 */
import type { ModelInfo, SessionState, SessionStats, ThinkingLevel } from "../protocol/commands.js";
import type { AgentEventBase, AssistantMessageEvent } from "../protocol/events.js";
import { type Clock, realClock } from "../session/clock.js";
import { BatchedNotifier, microtaskSchedule } from "../session/notifier.js";
import { IDLE_RUN } from "../session/run.js";
import { isObject, str } from "../values.js";
import { checkMessage, isShown, type KnownMessage, type UnknownMessage } from "./messages.js";
import type {
  CompactionNotice,
  ConversationEntry,
  ConversationSnapshot,
  ConversationStore,
  MessageEntry,
  Notice,
  NoticeEntry,
  OtherEntry,
  Queues,
  RetryNotice,
  RunState,
  SessionInfo,
  ShellExecution,
  ToolExecution,
} from "./snapshot.js";
import { StreamingAssistant } from "./streaming.js";

export interface ConversationStateOptions {
  /** How subscriber notifications are batched. Default `queueMicrotask`: one call per synchronous burst. */
  schedule?: (flush: () => void) => void;
  /** Told of a final message that failed its schema (it is kept as an `OtherEntry`). */
  onInvalidMessage?: (problem: string, message: unknown) => void;
  /** The clock tool runs and thinking are timed on (`conversationOf` passes the session's). Default real time. */
  clock?: Clock;
}

/** One committed message (shown or hidden) or one notice, in conversation order. */
type Item =
  | {
      readonly message: object;
      /** Undefined for a hidden message. */
      readonly entry: MessageEntry | OtherEntry | undefined;
      /** The local sequence number when it was committed here (0: from a history). */
      readonly seq: number;
      signature?: string;
    }
  | { readonly notice: NoticeEntry };

const EMPTY: readonly never[] = Object.freeze([]);
const NO_QUEUES: Queues = Object.freeze({ steering: EMPTY, followUp: EMPTY });
const EMPTY_INFO: SessionInfo = Object.freeze({
  model: undefined,
  availableModels: undefined,
  thinkingLevel: undefined,
  availableThinkingLevels: undefined,
  protocol: undefined,
  sessionId: undefined,
  sessionName: undefined,
  sessionFile: undefined,
  isStreaming: false,
  isCompacting: false,
  stats: undefined,
});

export class ConversationState implements ConversationStore {
  readonly #notifier: BatchedNotifier;
  readonly #onInvalid: ((problem: string, message: unknown) => void) | undefined;
  #nextKey = 0;
  /** Increases with every message committed here; `mark()` reads it. */
  #seq = 0;

  #items: Item[] = [];
  #entriesView: readonly ConversationEntry[] | undefined = EMPTY;
  #streaming: StreamingAssistant | undefined;
  /** When each thinking block of the streaming message started and ended, by block index, on the clock. */
  #thinking: { start: Map<number, number>; end: Map<number, number> } | undefined;
  readonly #tools = new Map<string, ToolExecution>();
  #toolsView: ReadonlyMap<string, ToolExecution> | undefined;
  #queue: Queues = NO_QUEUES;
  #info: SessionInfo = EMPTY_INFO;
  #historyLoaded = false;
  /** The user's shell command running or just answered (pi 1.6's `bash_execution_update`). */
  #shell: ShellExecution | undefined;
  /** The command line of each `bash` command in flight, by id, for the shell its updates show. */
  readonly #shellCommands = new Map<string, string>();

  /** What the run is doing: the session's (`setRun`), never decided here. */
  #run: RunState = IDLE_RUN;
  /** Index in #items where the current run began (agent_start), to match `agent_end.messages`. */
  #runStart = 0;

  #snapshot: ConversationSnapshot | undefined;

  /** The clock tool runs and thinking are timed on. */
  readonly clock: Clock;

  constructor(options: ConversationStateOptions = {}) {
    this.clock = options.clock ?? realClock;
    this.#notifier = new BatchedNotifier(options.schedule ?? microtaskSchedule);
    this.#onInvalid = options.onInvalidMessage;
  }

  /** The current snapshot: the same object until something changes (what `useSyncExternalStore` needs). */
  getSnapshot = (): ConversationSnapshot => {
    this.#snapshot ??= this.#build();
    return this.#snapshot;
  };

  subscribe = (listener: () => void): (() => void) => this.#notifier.subscribe(listener);

  /** The local sequence number now: pass it to `setHistory` for a `get_messages` sent at this point. */
  mark(): number {
    return this.#seq;
  }

  /** Applies one agent event (envelope-checked: an object with a string `type`). Unknown types are ignored. */
  apply(event: AgentEventBase): void {
    switch (event.type) {
      case "message_update":
        this.#onUpdate(event);
        return;
      case "message_start":
        this.#onMessageStart(event.message);
        return;
      case "message_end":
        this.#onMessageEnd(event.message);
        return;
      case "agent_end":
        this.#onAgentEnd(event);
        return;
      case "tool_execution_start":
      case "tool_execution_update":
      case "tool_execution_end":
        this.#onTool(event);
        return;
      case "queue_update":
        this.#queue = {
          steering: strings(event.steering) ?? this.#queue.steering,
          followUp: strings(event.followUp) ?? this.#queue.followUp,
        };
        this.#changed();
        return;
      case "compaction_start":
        this.#addNotice({ type: "compaction", reason: str(event.reason), status: "running" });
        return;
      case "compaction_end":
        this.#onCompactionEnd(event);
        return;
      case "auto_retry_start":
        this.#onRetryStart(event);
        return;
      case "auto_retry_end":
        this.#onRetryEnd(event);
        return;
      case "extension_error":
        this.#addNotice({
          type: "extension_error",
          extensionPath: str(event.extensionPath),
          event: str(event.event),
          error: str(event.error) ?? "An extension failed.",
        });
        return;
      case "thinking_level_changed":
        if (typeof event.level === "string") this.setInfo({ thinkingLevel: event.level as ThinkingLevel });
        return;
      case "session_info_changed":
        this.setInfo({ sessionName: str(event.name) });
        return;
      case "bash_execution_update":
        this.#onShellOutput(event);
        return;
    }
  }

  /**
   * Takes a history (`get_messages`' `messages`) under the merge rule above. `since` is `mark()` when the
   * `get_messages` was sent.
   */
  setHistory(messages: readonly unknown[], since: number): void {
    const old = this.#items;
    const bySignature = new Map<string, Item[]>();
    for (const item of old) {
      if (!("message" in item)) continue;
      const list = bySignature.get(signatureOf(item));
      if (list) list.push(item);
      else bySignature.set(signatureOf(item), [item]);
    }
    const next: Item[] = [];
    const reused = new Set<Item>();
    for (const message of messages) {
      const signature = signature_(message);
      const match = bySignature.get(signature)?.find((item) => !reused.has(item));
      if (match) {
        reused.add(match);
        next.push(match);
      } else {
        const item = this.#itemFor(message, 0);
        if (item) {
          item.signature = signature;
          next.push(item);
        }
      }
      this.#toolFromHistory(message);
    }
    // After every toolResult of the history: a call its result answers was not cut.
    for (const message of messages) this.#endCutCalls(message);
    // Rule 2: committed here after the request, unknown to the history.
    for (const item of old) {
      if ("message" in item && item.seq > since && !reused.has(item)) {
        reused.add(item);
        next.push(item);
      }
    }
    // Rule 4: notices after the message they followed, or the nearest earlier one that is still there.
    let anchor: Item | undefined;
    const after = new Map<Item | undefined, NoticeEntry[]>();
    for (const item of old) {
      if ("notice" in item) {
        const list = after.get(anchor);
        if (list) list.push(item.notice);
        else after.set(anchor, [item.notice]);
      } else if (reused.has(item)) anchor = item;
    }
    const merged: Item[] = [];
    for (const notice of after.get(undefined) ?? []) merged.push({ notice });
    for (const item of next) {
      merged.push(item);
      for (const notice of after.get(item) ?? []) merged.push({ notice });
    }
    this.#items = merged;
    this.#runStart = Math.min(this.#runStart, merged.length);
    this.#historyLoaded = true;
    // A shell command pi answered is in this history now, as its bashExecution message.
    if (this.#shell?.status === "done") this.#shell = undefined;
    this.#entriesView = undefined;
    this.#changed();
  }

  /** Forgets the conversation (a new, switched or forked session): messages, notices, stream, tools and queues. */
  reset(): void {
    this.#items = [];
    this.#runStart = 0;
    this.#entriesView = undefined;
    this.#streaming = undefined;
    this.#tools.clear();
    this.#toolsView = undefined;
    this.#queue = NO_QUEUES;
    this.#historyLoaded = false;
    this.#shell = undefined;
    this.#shellCommands.clear();
    this.#info = { ...this.#info, stats: undefined };
    this.#changed();
  }

  /**
   * Drops the message being streamed (a gap in the connection: see rule 3), and the shell command's output, whose
   * deltas in the gap are lost too.
   */
  dropStreaming(): void {
    if (!this.#streaming && !this.#shell) return;
    this.#streaming = undefined;
    this.#shell = undefined;
    this.#changed();
  }

  /** A `bash` command (the user's shell command) was sent with this id: its output will show `command`. */
  shellSent(id: string, command: unknown): void {
    if (typeof command === "string") this.#shellCommands.set(id, command);
  }

  /**
   * pi answered the `bash` command `id`: `ok` with its result (`data`: exitCode, cancelled, truncated), which the
   * shell shows until the next history; not `ok` (pi refused or failed it), and the shell leaves at once.
   */
  shellAnswered(id: string, ok: boolean, data?: unknown): void {
    this.#shellCommands.delete(id);
    const shell = this.#shell;
    if (shell?.id !== id) return;
    if (!ok) this.#shell = undefined;
    else {
      const result = isObject(data) ? data : {};
      this.#shell = {
        ...shell,
        status: "done",
        exitCode: typeof result.exitCode === "number" || result.exitCode === null ? result.exitCode : undefined,
        cancelled: typeof result.cancelled === "boolean" ? result.cancelled : undefined,
        truncated: typeof result.truncated === "boolean" ? result.truncated : undefined,
      };
    }
    this.#changed();
  }

  /** Changes parts of the session info; unchanged values keep the info object. */
  setInfo(patch: Partial<SessionInfo>): void {
    let changed = false;
    for (const [key, value] of Object.entries(patch) as [keyof SessionInfo, unknown][]) {
      if (this.#info[key] !== value) changed = true;
    }
    if (!changed) return;
    this.#info = { ...this.#info, ...patch };
    this.#changed();
  }

  /**
   * What the run is doing now, as the session decided it (`UiSnapshot.run`). A run that starts begins where the
   * conversation is now (`agent_end.messages` are matched from there); one that ends takes the message being streamed
   * with it (pi exited, or `get_state` says pi is idle).
   */
  setRun(run: RunState): void {
    const was = this.#run;
    if (run === was) return;
    this.#run = run;
    if (run.working && !was.working) this.#runStart = this.#items.length;
    if (!run.working && was.working) this.#streaming = undefined;
    if (run.working !== this.#info.isStreaming || run.compacting !== this.#info.isCompacting) {
      this.#info = { ...this.#info, isStreaming: run.working, isCompacting: run.compacting };
    }
    this.#changed();
  }

  /** Takes `get_state`: session, model and thinking level (whether pi works comes through `setRun`). */
  setState(state: Partial<SessionState>): void {
    this.setInfo({
      model: isObject(state.model) ? (state.model as ModelInfo) : undefined,
      thinkingLevel: state.thinkingLevel,
      sessionId: state.sessionId,
      sessionName: state.sessionName,
      sessionFile: state.sessionFile,
    });
  }

  /** Takes `get_session_stats`; an answer without `tokens` and `cost` is ignored. */
  setStats(stats: unknown): void {
    if (!isObject(stats) || !isObject(stats.tokens) || typeof stats.cost !== "number") return;
    this.setInfo({ stats: stats as unknown as SessionStats });
  }

  #onUpdate(event: AgentEventBase): void {
    const update = event.assistantMessageEvent;
    if (!isObject(update) || typeof update.type !== "string") return;
    const partial = update.partial ?? event.message;
    if (!this.#streaming) {
      // Joined mid-message. 0.73.1's partial is the whole message so far; 1.6.0's deltas alone would show a
      // message without its start, so it waits for message_end.
      if (!isObject(partial)) return;
      this.#streaming = new StreamingAssistant(this.#key(), partial, true);
      // Its thinking so far is timed from now: when it began is not known here.
      this.#thinking = { start: new Map(), end: new Map() };
      if (Array.isArray(partial.content)) {
        partial.content.forEach((block, index) => {
          if (isObject(block) && block.type === "thinking") this.#blockStarted(index, true);
        });
      }
      this.#changed();
      return;
    }
    // Only a block's start or a thinking block's end is timed: a token costs this one look at its type.
    const type = update.type;
    if (typeof update.contentIndex === "number") {
      if (type === "thinking_end") {
        if (this.#thinking?.start.has(update.contentIndex))
          this.#thinking.end.set(update.contentIndex, this.clock.now());
      } else if (type.endsWith("_start")) this.#blockStarted(update.contentIndex, type === "thinking_start");
    }
    if (this.#streaming.update(update as AssistantMessageEvent, partial, event.usage)) this.#changed();
  }

  /** Block `index` of the streaming message began: it ends the thinking blocks before it still open. */
  #blockStarted(index: number, thinking: boolean): void {
    this.#thinking ??= { start: new Map(), end: new Map() };
    const times = this.#thinking;
    const now = this.clock.now();
    for (const [at] of times.start) if (at < index && !times.end.has(at)) times.end.set(at, now);
    if (thinking && !times.start.has(index)) times.start.set(index, now);
  }

  #onMessageStart(message: unknown): void {
    if (!isObject(message) || message.role !== "assistant") return;
    this.#streaming = new StreamingAssistant(this.#key(), message);
    this.#thinking = undefined;
    this.#changed();
  }

  #onMessageEnd(message: unknown): void {
    let thinkingMs: Map<number, number> | undefined;
    if (isObject(message) && message.role === "assistant") {
      const times = this.#streaming ? this.#thinking : undefined;
      if (times && times.start.size > 0) {
        const now = this.clock.now();
        thinkingMs = new Map();
        for (const [index, began] of times.start) thinkingMs.set(index, (times.end.get(index) ?? now) - began);
      }
      this.#streaming = undefined;
      this.#thinking = undefined;
    }
    this.#commit(message, thinkingMs);
  }

  #onAgentEnd(event: AgentEventBase): void {
    // A message of the run this client has not committed (it joined mid-run) is taken from agent_end; one it has is
    // not checked again. Matched by role and timestamp, not JSON: agent_end repeats every message of the run, and
    // comparing them whole would cost as much again as parsing them. Each goes where the run has it: before the
    // first message of the run that follows it here.
    if (Array.isArray(event.messages)) {
      const run = new RunMessages(this.#items, this.#runStart);
      let at = this.#runStart;
      for (const message of event.messages) {
        const known = run.find(message);
        if (known) {
          at = Math.max(at, this.#items.indexOf(known, at) + 1);
          continue;
        }
        this.#seq += 1;
        const item = this.#itemFor(message, this.#seq);
        if (!item) continue;
        this.#items.splice(at, 0, item);
        at += 1;
        if (item.entry) this.#entriesView = undefined;
        this.#endCutCalls(message);
      }
    }
    this.#streaming = undefined;
    this.#changed();
  }

  /** pi 1.6's `bash_execution_update {id, delta}`: the delta is appended (the output is not resent whole). */
  #onShellOutput(event: AgentEventBase): void {
    if (typeof event.delta !== "string") return;
    const id = str(event.id);
    const shell = this.#shell;
    this.#shell =
      shell && shell.id === id
        ? { ...shell, output: shell.output + event.delta }
        : {
            id,
            command: id === undefined ? undefined : this.#shellCommands.get(id),
            output: event.delta,
            status: "running",
            exitCode: undefined,
            cancelled: undefined,
            truncated: undefined,
          };
    this.#changed();
  }

  #onTool(event: AgentEventBase): void {
    const id = str(event.toolCallId);
    if (id === undefined) return;
    const old = this.#tools.get(id);
    const toolName = str(event.toolName) ?? old?.toolName ?? "";
    let next: ToolExecution;
    const now = this.clock.now();
    if (event.type === "tool_execution_start" || !old) {
      next = {
        toolCallId: id,
        toolName,
        args: event.args ?? old?.args,
        status: "running",
        partialResult: undefined,
        result: undefined,
        isError: false,
        durationMs: undefined,
        parentToolCallId: str(event.parentToolCallId) ?? old?.parentToolCallId,
        startedAt: now,
        endedAt: undefined,
      };
    } else next = old;
    if (event.type === "tool_execution_update") next = { ...next, partialResult: event.partialResult };
    else if (event.type === "tool_execution_end") {
      const isError = event.isError === true;
      next = {
        ...next,
        status: isError ? "error" : "done",
        result: event.result,
        isError,
        durationMs: typeof event.durationMs === "number" ? event.durationMs : undefined,
        endedAt: now,
      };
    }
    this.#tools.set(id, next);
    this.#toolsView = undefined;
    this.#changed();
  }

  /**
   * Rule 6, as pi's own TUI has it: a tool call of an assistant message that ended aborted (Stop while the call was
   * streamed or waited to run) or failed, and that no tool run answers, will not run: it ends with the message, its
   * result "Operation aborted" or the message's error, instead of waiting for ever.
   */
  #endCutCalls(message: unknown): void {
    if (!isObject(message) || message.role !== "assistant" || !Array.isArray(message.content)) return;
    const stop = message.stopReason;
    if (stop !== "aborted" && stop !== "error") return;
    const text = stop === "aborted" ? "Operation aborted" : (str(message.errorMessage) ?? "Error");
    for (const block of message.content) {
      if (!isObject(block) || block.type !== "toolCall" || typeof block.id !== "string") continue;
      if (this.#tools.has(block.id)) continue;
      this.#tools.set(block.id, {
        toolCallId: block.id,
        toolName: str(block.name) ?? "",
        args: block.arguments,
        status: "error",
        partialResult: undefined,
        result: { content: [{ type: "text", text }] },
        isError: true,
        durationMs: undefined,
        parentToolCallId: undefined,
        startedAt: undefined,
        endedAt: undefined,
      });
      this.#toolsView = undefined;
      this.#changed();
    }
  }

  /** Rule 5: a `toolResult` in a history finishes (or adds) its tool run. */
  #toolFromHistory(message: unknown): void {
    if (!isObject(message) || message.role !== "toolResult" || typeof message.toolCallId !== "string") return;
    const old = this.#tools.get(message.toolCallId);
    if (old && old.status !== "running") return;
    const isError = message.isError === true;
    this.#tools.set(message.toolCallId, {
      toolCallId: message.toolCallId,
      toolName: str(message.toolName) ?? old?.toolName ?? "",
      args: old?.args,
      status: isError ? "error" : "done",
      partialResult: old?.partialResult,
      result: { content: message.content, details: message.details },
      isError,
      durationMs: old?.durationMs,
      parentToolCallId: old?.parentToolCallId,
      startedAt: old?.startedAt,
      endedAt: old?.endedAt,
    });
    this.#nestedFromHistory(message.toolCallId, message.nestedCalls);
    this.#toolsView = undefined;
  }

  /**
   * pi 1.6: the calls a tool made to other tools (`ctx.executeTool()`, e.g. codemode or a subagent) have no messages
   * of their own; the caller's `toolResult` keeps a bounded record of them (`nestedCalls.calls`: id, name, arguments,
   * status, duration, error; never results). After a reload they come from there, each with its parent: pi names a
   * nested call `<parent id>/<n>`, so the parent is the id up to the last `/` when that is a call of this record,
   * else the calling tool. A run seen live keeps what its events said. `unfinished` (still running when its caller
   * finished) shows as failed: it will not finish now, and its result is lost.
   */
  #nestedFromHistory(callerId: string, nested: unknown): void {
    if (!isObject(nested) || !Array.isArray(nested.calls)) return;
    const ids = new Set<string>([callerId]);
    for (const call of nested.calls) if (isObject(call) && typeof call.id === "string") ids.add(call.id);
    for (const call of nested.calls) {
      if (!isObject(call) || typeof call.id !== "string" || call.id === callerId) continue;
      const old = this.#tools.get(call.id);
      if (old && old.status !== "running") continue;
      const cut = call.id.lastIndexOf("/");
      const prefix = cut > 0 ? call.id.slice(0, cut) : undefined;
      const isError = call.status !== "ok";
      const error = str(call.error);
      this.#tools.set(call.id, {
        toolCallId: call.id,
        toolName: str(call.name) ?? old?.toolName ?? "",
        args: isObject(call.arguments) ? call.arguments : old?.args,
        status: isError ? "error" : "done",
        partialResult: old?.partialResult,
        result: error === undefined ? undefined : { content: [{ type: "text", text: error }] },
        isError,
        durationMs: typeof call.durationMs === "number" ? call.durationMs : old?.durationMs,
        parentToolCallId: prefix !== undefined && ids.has(prefix) ? prefix : callerId,
        startedAt: old?.startedAt,
        endedAt: old?.endedAt,
      });
    }
  }

  #onCompactionEnd(event: AgentEventBase): void {
    const index = this.#lastNotice("compaction", (notice) => notice.status === "running");
    const status: CompactionNotice["status"] =
      event.aborted === true ? "aborted" : isObject(event.result) ? "done" : "failed";
    const notice: CompactionNotice = {
      type: "compaction",
      reason: str(event.reason),
      status,
      ...(isObject(event.result) ? { result: event.result } : {}),
      ...(typeof event.errorMessage === "string" ? { errorMessage: event.errorMessage } : {}),
      ...(typeof event.willRetry === "boolean" ? { willRetry: event.willRetry } : {}),
    };
    if (index === undefined) this.#addNotice(notice);
    else this.#replaceNotice(index, notice);
  }

  #onRetryStart(event: AgentEventBase): void {
    this.#dropFailedAnswer();
    const attempt = typeof event.attempt === "number" ? event.attempt : 1;
    const maxAttempts = num(event.maxAttempts);
    const delayMs = num(event.delayMs);
    const notice: RetryNotice = {
      type: "retry",
      attempt,
      maxAttempts,
      delayMs,
      errorMessage: str(event.errorMessage),
      status: "waiting",
    };
    // One notice per series of attempts: the next attempt takes the place of the one waiting.
    const index = this.#lastNotice("retry", (item) => item.status === "waiting");
    if (index === undefined) this.#addNotice(notice);
    else this.#replaceNotice(index, notice);
  }

  /**
   * pi takes the failed answer out of its messages before it retries (it is in no later `get_messages`), so it
   * leaves here too; the retry notice says what failed.
   */
  #dropFailedAnswer(): void {
    for (let i = this.#items.length - 1; i >= 0; i--) {
      const item = this.#items[i]!;
      if (!("message" in item)) continue;
      const message = item.message as { role?: unknown; stopReason?: unknown };
      if (message.role === "assistant" && message.stopReason === "error") {
        this.#items.splice(i, 1);
        this.#runStart = Math.min(this.#runStart, this.#items.length);
        this.#entriesView = undefined;
      }
      return;
    }
  }

  #onRetryEnd(event: AgentEventBase): void {
    const index = this.#lastNotice("retry", (item) => item.status === "waiting");
    if (index !== undefined) {
      const old = (this.#items[index] as { notice: NoticeEntry }).notice.notice as RetryNotice;
      const finalError = str(event.finalError);
      this.#replaceNotice(index, {
        ...old,
        attempt: typeof event.attempt === "number" ? event.attempt : old.attempt,
        status: event.success === true ? "succeeded" : "failed",
        ...(finalError === undefined ? {} : { finalError }),
      });
    }
  }

  #lastNotice<T extends Notice["type"]>(
    type: T,
    test: (notice: Extract<Notice, { type: T }>) => boolean,
  ): number | undefined {
    for (let i = this.#items.length - 1; i >= 0; i--) {
      const item = this.#items[i]!;
      if ("notice" in item && item.notice.notice.type === type) {
        return test(item.notice.notice as Extract<Notice, { type: T }>) ? i : undefined;
      }
    }
    return undefined;
  }

  #addNotice(notice: Notice): void {
    this.#items.push({ notice: { kind: "notice", key: this.#key(), notice } });
    this.#entriesView = undefined;
    this.#changed();
  }

  #replaceNotice(index: number, notice: Notice): void {
    const old = this.#items[index] as { notice: NoticeEntry };
    this.#items[index] = { notice: { kind: "notice", key: old.notice.key, notice } };
    this.#entriesView = undefined;
    this.#changed();
  }

  #commit(message: unknown, thinkingMs?: ReadonlyMap<number, number>): void {
    this.#seq += 1;
    let item = this.#itemFor(message, this.#seq);
    if (!item) return;
    if (thinkingMs && item.entry?.kind === "message") item = { ...item, entry: { ...item.entry, thinkingMs } };
    this.#items.push(item);
    this.#endCutCalls(message);
    if (item.entry) {
      this.#entriesView = undefined;
      this.#changed();
    }
  }

  /** An item for a final message: checked once here; undefined for something that is not a message at all. */
  #itemFor(message: unknown, seq: number): Extract<Item, { message: object }> | undefined {
    const checked = checkMessage(message);
    if (!checked.ok) {
      this.#onInvalid?.(checked.problem, message);
      if (!isObject(message)) return undefined;
      const entry: OtherEntry = {
        kind: "other",
        key: this.#key(),
        message: { role: str(message.role) ?? "", ...message } as UnknownMessage,
        problem: checked.problem,
      };
      return { message, entry, seq };
    }
    if (!isShown(checked.message as { role: string; display?: unknown })) {
      return { message: checked.message, entry: undefined, seq };
    }
    const entry: MessageEntry | OtherEntry = checked.known
      ? { kind: "message", key: this.#key(), message: checked.message as KnownMessage }
      : { kind: "other", key: this.#key(), message: checked.message };
    return { message: checked.message, entry, seq };
  }

  #key(): string {
    this.#nextKey += 1;
    return `c${this.#nextKey}`;
  }

  #changed(): void {
    this.#snapshot = undefined;
    this.#notifier.changed();
  }

  #build(): ConversationSnapshot {
    if (this.#entriesView === undefined) {
      const entries: ConversationEntry[] = [];
      for (const item of this.#items) {
        if ("notice" in item) entries.push(item.notice);
        else if (item.entry) entries.push(item.entry);
      }
      this.#entriesView = entries.length === 0 ? EMPTY : entries;
    }
    this.#toolsView ??= new Map(this.#tools);
    return {
      entries: this.#entriesView,
      streaming: this.#streaming?.view(),
      tools: this.#toolsView,
      run: this.#run,
      queue: this.#queue,
      info: this.#info,
      historyLoaded: this.#historyLoaded,
      shell: this.#shell,
    };
  }
}

/** What makes two final messages the same one: the same JSON (pi serializes one message the same way each time). */
function signature_(message: unknown): string {
  try {
    return JSON.stringify(message) ?? "";
  } catch {
    return "";
  }
}

/**
 * The messages committed in one run, to tell which of `agent_end.messages` are already here: by role, timestamp (pi
 * stamps every message) and tool call id, the timestamp looked up as a number; a message without a timestamp by its
 * JSON. Nothing is built for the messages an `agent_end` does not ask about.
 */
class RunMessages {
  readonly #byTimestamp = new Map<number, Item[]>();
  #unstamped: Map<string, Item> | undefined;
  /** The run's items as they were when agent_end came: the ones it commits (spliced in meanwhile) are not among them. */
  readonly #run: readonly Item[];

  constructor(items: readonly Item[], start: number) {
    this.#run = items.slice(start);
    for (const item of this.#run) {
      if (!("message" in item)) continue;
      const message = item.message as Record<string, unknown>;
      if (typeof message.timestamp !== "number") continue;
      const list = this.#byTimestamp.get(message.timestamp);
      if (list) list.push(item);
      else this.#byTimestamp.set(message.timestamp, [item]);
    }
  }

  /** The item holding `message` (the same role, timestamp and tool call; without a timestamp, the same JSON). */
  find(message: unknown): Item | undefined {
    if (isObject(message) && typeof message.timestamp === "number") {
      return this.#byTimestamp.get(message.timestamp)?.find((item) => {
        const held = (item as { message: Record<string, unknown> }).message;
        return held.role === message.role && held.toolCallId === message.toolCallId;
      });
    }
    if (!this.#unstamped) {
      this.#unstamped = new Map();
      for (const item of this.#run) {
        if ("message" in item && typeof (item.message as { timestamp?: unknown }).timestamp !== "number") {
          this.#unstamped.set(signatureOf(item), item);
        }
      }
    }
    return this.#unstamped.get(signature_(message));
  }
}

function signatureOf(item: Extract<Item, { message: object }>): string {
  item.signature ??= signature_(item.message);
  return item.signature;
}

function num(value: unknown): number | undefined {
  return typeof value === "number" ? value : undefined;
}

function strings(value: unknown): readonly string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === "string") ? value : undefined;
}
