/**
 * A dialog's life, written once: queued, counted down on one timer, answered once through `respond`, or closed by
 * its deadline, the agent or another client. `PiSession` keeps one `Dialogs` for pi's dialogs; `LocalSession` is
 * one with no agent behind it, for a dialog element used on its own. Views (the dialog elements) only read the
 * store and answer through `respond`: a dialog closes by leaving the snapshot.
 */
import { answerFields, type DialogAnswer } from "../protocol/dialog-methods.js";
import type { DialogRequest } from "../protocol/extension-ui.js";
import { type Clock, DeadlineTimer, realClock } from "./clock.js";
import type { PendingDialog, UiStore } from "./ui-snapshot.js";
import { UiState } from "./ui-state.js";

/** What a dialog view needs from whoever owns its dialog. `PiSession` and `LocalSession` are both one. */
export interface DialogSession {
  /** The store the view reads its `PendingDialog` from; the dialog closes by leaving `dialogs`. */
  readonly ui: UiStore;
  /** The clock `PendingDialog.deadline` is on. */
  readonly clock: Clock;
  /** The one answer path: true when the answer was taken, false (nothing done) otherwise. */
  respond(id: string, answer: DialogAnswer): boolean;
}

/**
 * Why a dialog left: answered here, its deadline passed, closed by pi or another client ("remote"), the agent
 * process exited ("agent_exit"), or the session ended for good ("closed": nothing was sent, nothing can be).
 */
export type DialogClosedReason = "answered" | "timeout" | "remote" | "agent_exit" | "closed";
export interface DialogClosed {
  id: string;
  reason: DialogClosedReason;
}

/**
 * What an answer to a dialog comes to, judged once for every side that holds the dialog (a session, the bridge's
 * mirror of it): "answered" (pending, in time, and it fits its method), "expired" (pending, but its deadline has
 * passed, even if no timer has run yet: a throttled tab, a busy bridge; it is a timeout, whatever the answer says),
 * "wrong-shape" (pending and in time, but the answer does not fit its method), "not-pending" (answered, expired or
 * closed already, or never there).
 */
export type AnswerVerdict = "answered" | "expired" | "wrong-shape" | "not-pending";

/** The verdict on `answer` to `dialog` at `now` (a time on the dialog's clock), and the fields to send when answered. */
export function judgeAnswer(
  dialog: PendingDialog | undefined,
  answer: DialogAnswer,
  now: number,
): { verdict: Exclude<AnswerVerdict, "answered"> } | { verdict: "answered"; fields: object } {
  if (!dialog) return { verdict: "not-pending" };
  if (dialog.deadline !== undefined && now >= dialog.deadline) return { verdict: "expired" };
  const fields = answerFields(dialog.request, answer);
  return fields ? { verdict: "answered", fields } : { verdict: "wrong-shape" };
}

/** What `Dialogs` sends for a dialog whose deadline passed, as if it had been cancelled. */
export const TIMEOUT_ANSWER: Readonly<{ cancelled: true }> = Object.freeze({ cancelled: true });

/**
 * The pending dialogs of one `UiState` on one clock, with one timer for the earliest deadline. `onClosed` hears of
 * every dialog that leaves, with the fields to answer it with when the client decided (answered, timeout).
 */
export class Dialogs {
  readonly #state: UiState;
  readonly #clock: Clock;
  readonly #onClosed: (dialog: PendingDialog, reason: DialogClosedReason, fields?: object) => void;
  readonly #timer: DeadlineTimer;
  #stopped = false;

  constructor(
    state: UiState,
    clock: Clock,
    onClosed: (dialog: PendingDialog, reason: DialogClosedReason, fields?: object) => void,
  ) {
    this.#state = state;
    this.#clock = clock;
    this.#onClosed = onClosed;
    this.#timer = new DeadlineTimer(clock, this.#expire);
  }

  /** Call after the state gained or lost dialogs by other means (`UiState.apply`, `clearDialogs`). */
  changed(): void {
    this.#timer.set(this.#stopped ? undefined : this.#state.nextDeadline());
  }

  /** See `DialogSession.respond`; also false for an expired dialog or an answer that does not fit it. */
  respond(id: string, answer: DialogAnswer): boolean {
    return this.answer(id, answer) === "answered";
  }

  /** The verdict `answer` would get now, without acting on it. */
  judge(id: string, answer: DialogAnswer): AnswerVerdict {
    return judgeAnswer(this.#stopped ? undefined : this.#state.getDialog(id), answer, this.#clock.now()).verdict;
  }

  /**
   * Acts on an answer as its verdict says: "answered" closes the dialog with the answer's fields; "expired" expires
   * it (and every other dialog whose deadline passed) as its timer would have, so a late answer is a timeout;
   * "wrong-shape" and "not-pending" change nothing.
   */
  answer(id: string, answer: DialogAnswer): AnswerVerdict {
    const judged = judgeAnswer(this.#stopped ? undefined : this.#state.getDialog(id), answer, this.#clock.now());
    if (judged.verdict === "expired") this.#expire();
    else if (judged.verdict === "answered") this.close(id, "answered", judged.fields);
    return judged.verdict;
  }

  /** Removes a pending dialog for `reason`; false when it was not pending. */
  close(id: string, reason: DialogClosedReason, fields?: object): boolean {
    const dialog = this.#state.removeDialog(id);
    if (!dialog) return false;
    this.changed();
    this.#onClosed(dialog, reason, fields);
    return true;
  }

  /** Removes every pending dialog and returns them; tells `onClosed` with `reason`, or nobody when it is undefined. */
  clear(reason?: DialogClosedReason): PendingDialog[] {
    const closed = this.#state.clearDialogs();
    this.changed();
    if (reason !== undefined) for (const dialog of closed) this.#onClosed(dialog, reason);
    return closed;
  }

  /** Stops the timer for good; no answer is taken afterwards. */
  stop(): void {
    this.#stopped = true;
    this.#timer.clear();
  }

  readonly #expire = (): void => {
    const expired = this.#state.expire(this.#clock.now());
    this.changed();
    for (const dialog of expired) this.#onClosed(dialog, "timeout", TIMEOUT_ANSWER);
  };
}

export interface LocalSessionOptions {
  /** Default: real time. */
  clock?: Clock;
  /** How store notifications are batched. Default: at once, so a view hears of a change before `respond` returns. */
  schedule?: (flush: () => void) => void;
}

/**
 * A session with no agent: dialogs opened here are queued, timed and answered exactly as pi's are in `PiSession`,
 * and nobody is sent anything. A dialog element used on its own (`show()`, `ask()`) keeps one.
 */
export class LocalSession implements DialogSession {
  readonly clock: Clock;
  readonly #state: UiState;
  readonly #dialogs: Dialogs;

  constructor(options: LocalSessionOptions = {}) {
    this.clock = options.clock ?? realClock;
    this.#state = new UiState({ schedule: options.schedule ?? ((flush) => flush()) });
    this.#dialogs = new Dialogs(this.#state, this.clock, () => {});
  }

  get ui(): UiStore {
    return this.#state;
  }

  /**
   * Queues a dialog that ends after `timeout` ms (none when it is not a positive finite number; unlike pi's, an
   * editor may have one). False when a dialog with its id is already pending.
   */
  open(request: DialogRequest, timeout?: number): boolean {
    const now = this.clock.now();
    const deadline = timeout !== undefined && timeout > 0 && Number.isFinite(timeout) ? now + timeout : undefined;
    if (!this.#state.addDialog(request, now, deadline)) return false;
    this.#dialogs.changed();
    return true;
  }

  respond(id: string, answer: DialogAnswer): boolean {
    return this.#dialogs.respond(id, answer);
  }

  /**
   * Asks a pending dialog's question again as `request` (same id): its place and deadline stay. For a dialog element
   * whose own fields changed while it was open. False when no dialog with that id is pending.
   */
  update(request: DialogRequest): boolean {
    return this.#state.replaceDialogRequest(request);
  }

  /** Closes a pending dialog without an answer; false when it was not pending. */
  close(id: string): boolean {
    return this.#dialogs.close(id, "remote");
  }
}
