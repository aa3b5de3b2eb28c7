/**
 * The extension-UI state as the agent's clients see it, kept by the bridge so that it outlives connections: the
 * core's `UiState` fed with every valid `extension_ui_request` the agent writes, plus the bridge's own clock for
 * dialog deadlines. It decides which answers reach the agent (the first for a pending dialog, nothing else) and
 * renders the state as the replay a new connection receives.
 */
import {
  type Clock,
  type DialogAnswer,
  type DialogRequest,
  ExtensionUiRequest,
  type ExtensionUiResponse,
  type PendingDialog,
  UiState,
} from "@pi-elements/core";
import { recordFinder } from "./jsonl-frames.js";

export type AnswerVerdict =
  /** The dialog was pending and the answer fits its method: forward it; the dialog is now closed. */
  | "forward"
  /** No such pending dialog (answered already, expired, never existed): drop it. */
  | "not-pending"
  /** A pending dialog, but the answer has the wrong shape for its method: drop it, the dialog stays pending. */
  | "wrong-shape";

export interface UiMirrorOptions {
  clock: Clock;
  /** Dialogs whose deadline passed; they are already removed from the state. */
  onExpired: (dialogs: PendingDialog[]) => void;
}

const findUiRequests = recordFinder("extension_ui_request");

export class UiMirror {
  readonly #clock: Clock;
  readonly #onExpired: (dialogs: PendingDialog[]) => void;
  #state = new UiState({ schedule: () => {} });
  #timer: unknown;
  #timerDeadline: number | undefined;
  #replaySeq = 0;

  constructor(options: UiMirrorOptions) {
    this.#clock = options.clock;
    this.#onExpired = options.onExpired;
  }

  get state(): UiState {
    return this.#state;
  }

  /** Applies the UI requests in a frame of agent output (see `JsonlFramer`). Other records are not even decoded. */
  observeFrame(parts: readonly Buffer[]): void {
    this.observe(findUiRequests(parts));
  }

  /**
   * Applies the UI requests among a batch of agent records, in order. Other records are left alone, and so are
   * invalid requests: they are still relayed (the client reports them) but are not part of the state.
   *
   * A burst sets one status key thousands of times in one read; only the last valid setStatus per key can matter
   * (statuses are independent of each other and of everything else). So the batch is read from its end: a
   * setStatus for a key that a later record already settled is dropped as soon as it is parsed, never validated
   * and never kept. Keeping all of a burst's parsed records alive until the end of the batch made the garbage
   * collector promote them, which cost more than the parsing itself.
   */
  observe(records: readonly string[]): void {
    if (records.length === 0) return;
    const now = this.#clock.now();
    const settledStatusKeys = new Set<string>();
    /** The valid requests to apply, last first. */
    const requests: ExtensionUiRequest[] = [];
    for (let i = records.length - 1; i >= 0; i--) {
      let value: unknown;
      try {
        value = JSON.parse(records[i] as string);
      } catch {
        continue;
      }
      const statusKey = setStatusKey(value);
      if (statusKey !== undefined && settledStatusKeys.has(statusKey)) continue;
      const parsed = ExtensionUiRequest.safeParse(value);
      if (!parsed.success) continue;
      if (statusKey !== undefined) settledStatusKeys.add(statusKey);
      requests.push(parsed.data);
    }
    let dialogsAdded = false;
    for (let i = requests.length - 1; i >= 0; i--) {
      const request = requests[i] as ExtensionUiRequest;
      if (this.#state.apply(request, now) && isDialog(request)) dialogsAdded = true;
    }
    if (dialogsAdded) this.#arm();
  }

  /** Judges a client's answer; on "forward" the dialog is removed, so any later answer is "not-pending". */
  /** True when `response` answers a pending dialog with the wrong shape for its method (nothing changes). */
  misfits(response: ExtensionUiResponse): boolean {
    const dialog = this.#state.getDialog(response.id);
    return dialog !== undefined && !answerFits(dialog.request, response);
  }

  answer(response: ExtensionUiResponse): AnswerVerdict {
    const dialog = this.#state.getDialog(response.id);
    if (dialog === undefined) return "not-pending";
    if (!answerFits(dialog.request, response)) return "wrong-shape";
    this.#state.removeDialog(response.id);
    this.#arm();
    return "forward";
  }

  /** Closes every pending dialog (the agent exited) and returns them. */
  closeAll(): PendingDialog[] {
    const closed = this.#state.clearDialogs();
    this.#arm();
    return closed;
  }

  /** Starts over with an empty state: a new agent process knows nothing of the old one's UI. */
  clear(): void {
    this.#disarm();
    this.#state = new UiState({ schedule: () => {} });
  }

  /**
   * The state as ordinary extension_ui_request records, in the order a client must apply them: title, statuses,
   * widgets (each placement in display order), editor text, then the pending dialogs in queue order with `timeout`
   * set to the milliseconds that remain.
   */
  replay(): string[] {
    const snapshot = this.#state.getSnapshot();
    const now = this.#clock.now();
    const records: string[] = [];
    const request = (fields: Record<string, unknown>) => {
      this.#replaySeq += 1;
      records.push(
        JSON.stringify({ type: "extension_ui_request", id: `pi-elements-replay-${this.#replaySeq}`, ...fields }),
      );
    };
    if (snapshot.title !== undefined) request({ method: "setTitle", title: snapshot.title });
    for (const status of snapshot.statuses) {
      request({ method: "setStatus", statusKey: status.key, statusText: status.raw });
    }
    for (const widget of [...snapshot.widgets.aboveEditor, ...snapshot.widgets.belowEditor]) {
      request({
        method: "setWidget",
        widgetKey: widget.key,
        widgetLines: widget.lines,
        widgetPlacement: widget.placement,
      });
    }
    if (snapshot.editorText !== undefined) request({ method: "set_editor_text", text: snapshot.editorText.text });
    for (const dialog of snapshot.dialogs) {
      const remaining = dialog.deadline === undefined ? undefined : Math.max(1, Math.ceil(dialog.deadline - now));
      records.push(
        JSON.stringify(remaining === undefined ? dialog.request : { ...dialog.request, timeout: remaining }),
      );
    }
    return records;
  }

  dispose(): void {
    this.#disarm();
  }

  /** Keeps one timer, for the earliest deadline. */
  #arm(): void {
    const deadline = this.#state.nextDeadline();
    if (deadline === this.#timerDeadline) return;
    this.#disarm();
    if (deadline === undefined) return;
    this.#timerDeadline = deadline;
    this.#timer = this.#clock.setTimeout(
      () => {
        this.#timer = undefined;
        this.#timerDeadline = undefined;
        const expired = this.#state.expire(this.#clock.now());
        this.#arm();
        if (expired.length > 0) this.#onExpired(expired);
      },
      Math.max(0, deadline - this.#clock.now()),
    );
  }

  #disarm(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerDeadline = undefined;
  }
}

/** The status key of something shaped like a setStatus request, before validation. */
function setStatusKey(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { method, statusKey } = value as { method?: unknown; statusKey?: unknown };
  return method === "setStatus" && typeof statusKey === "string" ? statusKey : undefined;
}

function isDialog(request: ExtensionUiRequest): request is DialogRequest {
  return (
    request.method === "select" ||
    request.method === "confirm" ||
    request.method === "input" ||
    request.method === "editor"
  );
}

/** confirm takes {confirmed} or {cancelled}; select, input and editor take {value} or {cancelled}. */
export function answerFits(request: DialogRequest, answer: DialogAnswer | ExtensionUiResponse): boolean {
  if ("cancelled" in answer) return answer.cancelled === true;
  if (request.method === "confirm") return "confirmed" in answer;
  return "value" in answer;
}
