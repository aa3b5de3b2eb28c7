/**
 * The extension-UI state as the agent's clients see it, kept by the bridge so that it outlives connections: the
 * core's `UiState` fed with every valid `extension_ui_request` the agent writes, and the core's `Dialogs` on the
 * bridge's clock for the dialogs' life (deadlines, and the verdict on each answer, the same as every client's
 * session gives: an answer after the deadline is a timeout, even before the timer has run). It decides which
 * answers reach the agent (the first in time for a pending dialog, nothing else) and renders the state as the
 * replay a new connection receives.
 */
import {
  type AnswerVerdict,
  type Clock,
  Dialogs,
  ExtensionUiRequest,
  type ExtensionUiResponse,
  FIRE_AND_FORGET_METHODS,
  type FireAndForgetRequest,
  isDialogMethod,
  type PendingDialog,
  toNotifyType,
  UiState,
} from "@pi-elements/core";
import { DEFAULT_MAX_JSON_DEPTH, nestsDeeperThan } from "./json-depth.js";

/** How much of the agent's UI state the mirror keeps for the replay. Past a limit, the update is not kept. */
export interface MirrorLimits {
  /** Status keys. Default 500. */
  maxStatuses?: number;
  /** Widgets. Default 100. */
  maxWidgets?: number;
  /** Lines per widget; further lines are cut from the replayed widget. Default 1000. */
  maxWidgetLines?: number;
  /** Pending dialogs; one more is answered `cancelled` by the bridge. Default 100. */
  maxDialogs?: number;
  /** Characters of JSON kept for title, statuses, widgets and editor text together. Default 4 Mi (4,194,304). */
  maxStateChars?: number;
  /** Nesting of a UI request; a deeper one is not kept (a dialog is answered `cancelled`). Default 64. */
  maxJsonDepth?: number;
}

export const DEFAULT_MIRROR_LIMITS: Required<MirrorLimits> = {
  maxStatuses: 500,
  maxWidgets: 100,
  maxWidgetLines: 1000,
  maxDialogs: 100,
  maxStateChars: 4 * 1024 * 1024,
  maxJsonDepth: DEFAULT_MAX_JSON_DEPTH,
};

export interface UiMirrorOptions {
  clock: Clock;
  /**
   * A dialog whose deadline passed (its timer ran, or an answer came too late), already removed from the state, with
   * what the core's session sends for it (`TIMEOUT_ANSWER`).
   */
  onExpired: (dialog: PendingDialog, answer: object) => void;
  limits?: MirrorLimits;
  /** Told once per kind of limit reached, until the state is cleared. */
  onLimit?: (message: string) => void;
}

/** How many of the latest notifications a page that connects later gets, and how much of each message. */
export const RECENT_NOTIFICATIONS = 10;
const RECENT_NOTIFICATION_CHARS = 2000;

interface RecentNotification {
  id: string;
  notifyType: string;
  message: string;
  time: number;
}

export class UiMirror {
  readonly #clock: Clock;
  readonly #onExpired: (dialog: PendingDialog, answer: object) => void;
  readonly #limits: Required<MirrorLimits>;
  readonly #onLimit: (message: string) => void;
  #state = new UiState({ schedule: () => {} });
  /** The JSON size of each kept status, widget, title and editor text, by "kind:key", and their total. */
  #sizes = new Map<string, number>();
  #stateChars = 0;
  #statusCount = 0;
  #widgetCount = 0;
  #limitsReported = new Set<string>();
  /** The fire-and-forget part of the replay, kept until the state changes. */
  #replayCache: string[] | undefined;
  /** The pending dialogs' life, as the core lives it: one timer for the earliest deadline, one verdict on answers. */
  #dialogs: Dialogs;
  #replaySeq = 0;
  /** The latest notifications, oldest first, for a page that connects later ("earlier" in its list). */
  #recentNotifications: RecentNotification[] = [];

  constructor(options: UiMirrorOptions) {
    this.#clock = options.clock;
    this.#onExpired = options.onExpired;
    this.#limits = { ...DEFAULT_MIRROR_LIMITS, ...options.limits };
    this.#onLimit = options.onLimit ?? (() => {});
    this.#dialogs = this.#newDialogs();
  }

  #newDialogs(): Dialogs {
    return new Dialogs(this.#state, this.#clock, (dialog, reason, fields) => {
      if (reason === "timeout" && fields) this.#onExpired(dialog, fields);
    });
  }

  get state(): UiState {
    return this.#state;
  }

  /**
   * Applies the UI requests among a batch of agent records, in order: the candidates `sortAgentFrame` finds in a
   * frame of agent output, among which records of other types are judged by their parsed type and left alone. So are
   * invalid requests: they are still relayed (the client reports them) but are not part of the state.
   *
   * Returns the ids of the requests that block the agent but that no client can present: an invalid dialog or a
   * method nobody knows (as the core judges them), a dialog nested deeper than `maxJsonDepth` (it could not be
   * replayed), or one over `maxDialogs`. None of them is in the replay, so a client that connects later could
   * never answer them: the bridge answers each `cancelled` itself, once (the core's own cancel for it then finds
   * no pending dialog and is dropped).
   *
   * A burst sets one status key thousands of times in one read; only the last valid setStatus per key can matter
   * (statuses are independent of each other and of everything else). So the batch is read from its end: a
   * setStatus for a key that a later record already settled is dropped as soon as it is parsed, never validated
   * and never kept. Keeping all of a burst's parsed records alive until the end of the batch made the garbage
   * collector promote them, which cost more than the parsing itself.
   */
  observe(records: readonly string[]): string[] {
    const unanswerable: string[] = [];
    if (records.length === 0) return unanswerable;
    const now = this.#clock.now();
    const settledStatusKeys = new Set<string>();
    /** The valid requests to apply, last first. */
    const requests: ExtensionUiRequest[] = [];
    /** Blocking requests nobody can present, last first. */
    const blocking: string[] = [];
    for (let i = records.length - 1; i >= 0; i--) {
      const text = records[i] as string;
      let value: unknown;
      try {
        // JSON.parse copes with any depth; only what walks the value afterwards (validation, replay) does not.
        value = JSON.parse(text);
      } catch {
        continue;
      }
      // The finder's candidates include records of other types (a `\u` escape, or the name elsewhere): only what
      // parses as a UI request is one, as for every client.
      if (!isUiRequestRecord(value)) continue;
      const statusKey = setStatusKey(value);
      if (statusKey !== undefined && settledStatusKeys.has(statusKey)) continue;
      if (nestsDeeperThan(text, this.#limits.maxJsonDepth)) {
        this.#limitReached("depth", `a UI request nested deeper than ${this.#limits.maxJsonDepth} levels`);
        const id = blockingId(value, true);
        if (id !== undefined) blocking.push(id);
        continue;
      }
      const parsed = ExtensionUiRequest.safeParse(value);
      if (!parsed.success) {
        const id = blockingId(value, false);
        if (id !== undefined) blocking.push(id);
        continue;
      }
      if (statusKey !== undefined) settledStatusKeys.add(statusKey);
      requests.push(parsed.data);
    }
    let dialogsAdded = false;
    const seen = new Set<string>();
    for (let i = blocking.length - 1; i >= 0; i--) {
      const id = blocking[i] as string;
      // An id that belongs to a pending dialog is not ours to answer (the core leaves it alone too).
      if (!this.#state.hasDialog(id) && !seen.has(id)) {
        seen.add(id);
        unanswerable.push(id);
      }
    }
    for (let i = requests.length - 1; i >= 0; i--) {
      const request = requests[i] as ExtensionUiRequest;
      if (isDialogMethod(request.method)) {
        if (this.#state.hasDialog(request.id)) continue;
        if (this.#state.getSnapshot().dialogs.length >= this.#limits.maxDialogs) {
          this.#limitReached("dialogs", `${this.#limits.maxDialogs} pending dialogs`);
          unanswerable.push(request.id);
          continue;
        }
        if (this.#state.apply(request, now)) dialogsAdded = true;
      } else if (this.#keep(request as FireAndForgetRequest) && this.#state.apply(request, now)) {
        this.#replayCache = undefined;
      }
    }
    if (dialogsAdded) this.#dialogs.changed();
    return unanswerable;
  }

  /**
   * Whether a fire-and-forget request may change the kept state, within the limits (notify always may: the state
   * keeps a bounded list of them, and they are not replayed). An update that does not fit removes what the key held,
   * so the replay never shows a stale value; a widget's lines past the limit are cut in place.
   */
  #keep(request: FireAndForgetRequest): boolean {
    const limits = this.#limits;
    switch (request.method) {
      case "notify":
        this.#recentNotifications.push({
          id: request.id,
          notifyType: toNotifyType(request.notifyType),
          message: request.message.slice(0, RECENT_NOTIFICATION_CHARS),
          time: this.#clock.now(),
        });
        if (this.#recentNotifications.length > RECENT_NOTIFICATIONS) this.#recentNotifications.shift();
        return true;
      case "setStatus":
        if (request.statusText === undefined) return this.#resize(`s:${request.statusKey}`, undefined);
        return this.#resize(`s:${request.statusKey}`, request.statusKey.length + request.statusText.length, () => {
          if (this.#statusCount < limits.maxStatuses) return true;
          this.#limitReached("statuses", `${limits.maxStatuses} status keys`);
          return false;
        });
      case "setWidget": {
        const lines = request.widgetLines;
        if (lines === undefined) return this.#resize(`w:${request.widgetKey}`, undefined);
        if (lines.length > limits.maxWidgetLines) {
          this.#limitReached("lines", `${limits.maxWidgetLines} lines in a widget`);
          (request as { widgetLines: string[] }).widgetLines = lines.slice(0, limits.maxWidgetLines);
        }
        let chars = request.widgetKey.length;
        for (const line of request.widgetLines ?? []) chars += line.length + 3;
        return this.#resize(`w:${request.widgetKey}`, chars, () => {
          if (this.#widgetCount < limits.maxWidgets) return true;
          this.#limitReached("widgets", `${limits.maxWidgets} widgets`);
          return false;
        });
      }
      case "setTitle":
        return this.#resize("t:", request.title.length);
      case "set_editor_text":
        return this.#resize("e:", request.text?.length ?? 0);
    }
    return true;
  }

  /**
   * Accounts for `key` now holding `chars` (undefined: removed). A new key is admitted only if `admitNew` agrees;
   * past `maxStateChars` the key is removed from the state instead. Returns whether the request may be applied.
   */
  #resize(key: string, chars: number | undefined, admitNew: () => boolean = () => true): boolean {
    const old = this.#sizes.get(key);
    if (chars === undefined) {
      if (old !== undefined) this.#forget(key, old);
      return true;
    }
    if (old === undefined && !admitNew()) return false;
    if (this.#stateChars - (old ?? 0) + chars > this.#limits.maxStateChars) {
      this.#limitReached("chars", `${this.#limits.maxStateChars} characters of UI state`);
      if (old !== undefined) {
        this.#forget(key, old);
        this.#removeFromState(key);
      }
      return false;
    }
    if (old === undefined) this.#count(key, 1);
    this.#sizes.set(key, chars);
    this.#stateChars += chars - (old ?? 0);
    return true;
  }

  #forget(key: string, chars: number): void {
    this.#sizes.delete(key);
    this.#stateChars -= chars;
    this.#count(key, -1);
  }

  #count(key: string, delta: number): void {
    if (key.startsWith("s:")) this.#statusCount += delta;
    else if (key.startsWith("w:")) this.#widgetCount += delta;
  }

  /** Drops what a key holds from the state, as the agent itself would clear it. */
  #removeFromState(key: string): void {
    const now = this.#clock.now();
    const name = key.slice(2);
    const base = { type: "extension_ui_request", id: "pi-elements-limit" } as const;
    if (key.startsWith("s:")) this.#state.apply({ ...base, method: "setStatus", statusKey: name }, now);
    else if (key.startsWith("w:")) this.#state.apply({ ...base, method: "setWidget", widgetKey: name }, now);
    else if (key === "t:") this.#state.apply({ ...base, method: "setTitle", title: "" }, now);
    else this.#state.apply({ ...base, method: "set_editor_text", text: "" }, now);
    this.#replayCache = undefined;
  }

  #limitReached(kind: string, what: string): void {
    if (this.#limitsReported.has(kind)) return;
    this.#limitsReported.add(kind);
    this.#onLimit(`UI state limit reached (${what}): what goes past it is relayed but not kept for the replay`);
  }

  /**
   * True when `response` answers a pending dialog, in time, with the wrong shape for its method (nothing changes). A
   * late answer is a timeout whatever its shape, as in the core.
   */
  misfits(response: ExtensionUiResponse): boolean {
    return this.#dialogs.judge(response.id, response) === "wrong-shape";
  }

  /**
   * Acts on a client's answer with the core's verdict (see `Dialogs.answer`): on "answered" the dialog is removed
   * and the answer is to be forwarded, so any later answer is "not-pending"; on "expired" the dialog expired now
   * (`onExpired` has run) and the answer goes nowhere.
   */
  answer(response: ExtensionUiResponse): AnswerVerdict {
    return this.#dialogs.answer(response.id, response);
  }

  /** Closes every pending dialog (the agent exited) and returns them. */
  closeAll(): PendingDialog[] {
    return this.#dialogs.clear();
  }

  /**
   * A message went to the agent (prompt, steer, follow_up): the editor text the agent had set is used up, so a page
   * that connects later starts with an empty prompt, not a draft sent long ago.
   */
  consumeEditorText(): void {
    const chars = this.#sizes.get("e:");
    if (chars === undefined) return;
    this.#forget("e:", chars);
    this.#removeFromState("e:");
  }

  /** Starts over with an empty state: a new agent process knows nothing of the old one's UI. */
  clear(): void {
    this.#recentNotifications = [];
    this.#dialogs.stop();
    this.#state = new UiState({ schedule: () => {} });
    this.#dialogs = this.#newDialogs();
    this.#sizes = new Map();
    this.#stateChars = 0;
    this.#statusCount = 0;
    this.#widgetCount = 0;
    this.#limitsReported = new Set();
    this.#replayCache = undefined;
  }

  /**
   * The state as ordinary extension_ui_request records, in the order a client must apply them: title, statuses,
   * widgets (each placement in display order), editor text (unless a message used it up), then the pending dialogs in
   * queue order with `timeout` set to the milliseconds that remain, and last the recent notifications as one
   * `pi-elements/earlier_notifications` record with their ages, which a client shows as earlier and does not announce.
   */
  replay(): string[] {
    const snapshot = this.#state.getSnapshot();
    const now = this.#clock.now();
    // Built once per change of the state, not once per connection.
    this.#replayCache ??= this.#replayState();
    const records = [...this.#replayCache];
    for (const dialog of snapshot.dialogs) {
      const remaining = dialog.deadline === undefined ? undefined : Math.max(1, Math.ceil(dialog.deadline - now));
      records.push(
        JSON.stringify(remaining === undefined ? dialog.request : { ...dialog.request, timeout: remaining }),
      );
    }
    if (this.#recentNotifications.length > 0) {
      records.push(
        JSON.stringify({
          type: "pi-elements/earlier_notifications",
          notifications: this.#recentNotifications.map(({ time, ...notification }) => ({
            ...notification,
            ageMs: Math.max(0, now - time),
          })),
        }),
      );
    }
    return records;
  }

  #replayState(): string[] {
    const snapshot = this.#state.getSnapshot();
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
    if (snapshot.editorText?.text) request({ method: "set_editor_text", text: snapshot.editorText.text });
    return records;
  }

  dispose(): void {
    this.#dialogs.stop();
  }
}

/** The status key of something shaped like a setStatus request, before validation. */
function isUiRequestRecord(value: unknown): boolean {
  return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "extension_ui_request";
}

function setStatusKey(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { method, statusKey } = value as { method?: unknown; statusKey?: unknown };
  return method === "setStatus" && typeof statusKey === "string" ? statusKey : undefined;
}

/**
 * The id of a request that leaves the agent waiting for an answer, if it is one: a dialog method (even when the
 * request is invalid, or valid but `tooDeep` to keep), or a method that is no known one (as the core judges it:
 * see PiSession). Undefined for fire-and-forget methods and for requests without a usable id.
 */
function blockingId(value: unknown, tooDeep: boolean): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { id, method } = value as { id?: unknown; method?: unknown };
  if (typeof id !== "string" || id.length === 0) return undefined;
  const fireAndForget = (FIRE_AND_FORGET_METHODS as readonly unknown[]).includes(method);
  return fireAndForget && !(tooDeep && isDialogMethod(method)) ? undefined : id;
}
