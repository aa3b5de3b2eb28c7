/**
 * The extension-UI state with pi's semantics, free of any transport: it applies requests that were already
 * validated and keeps an immutable snapshot for renderers. `PiSession` owns one; the bridge can keep its own to see
 * exactly what pi's client sees. An element used without a session keeps one of its own and writes to it directly
 * (`setStatus`, `setWidget`, `notify`), so both ways are shown through the same store.
 *
 * Bursts are the normal case (2,000 setStatus lines in one chunk), so a change only marks the snapshot stale; the
 * snapshot is rebuilt on the next `getSnapshot`, and subscribers hear about a whole burst once, through `schedule`.
 */

import type { DialogRequest, ExtensionUiRequest, WidgetPlacement } from "../protocol/extension-ui.js";
import { NOTIFY_TYPES as NOTIFY_TYPE_LIST } from "../protocol/notify-types.js";
import { CLOSED_END } from "../transports/end.js";
import type { TransportEnd, TransportState } from "../transports/transport.js";
import { nextDialog } from "./dialog-order.js";
import { BatchedNotifier, microtaskSchedule } from "./notifier.js";
import { IDLE_RUN, type RunState } from "./run.js";
import type {
  AgentExit,
  EditorText,
  NotificationEntry,
  NotificationOrigin,
  PendingDialog,
  StatusEntry,
  UiSnapshot,
  UiStore,
  WidgetEntry,
} from "./ui-snapshot.js";

export const DEFAULT_MAX_NOTIFICATIONS = 100;

export interface UiStateOptions {
  /** Size of the notification ring buffer. Default 100. */
  maxNotifications?: number;
  /** How subscriber notifications are batched. Default `queueMicrotask`: one call per synchronous burst. */
  schedule?: (flush: () => void) => void;
  /** The initial `connection`. Default "open". */
  connection?: TransportState;
  /** Why, when the initial `connection` is "closed". */
  connectionEnd?: TransportEnd;
}

/** pi's status-line sanitizing: `\r \n \t` become spaces, runs of spaces collapse, the ends are trimmed. */
export function sanitizeStatusText(text: string): string {
  return text
    .replace(/[\r\n\t]/g, " ")
    .replace(/ +/g, " ")
    .trim();
}

// One collator instead of `a.localeCompare(b)`: the same default-locale order, much cheaper per comparison.
const byKey = new Intl.Collator();

const EMPTY: readonly never[] = Object.freeze([]);

export class UiState implements UiStore {
  readonly #maxNotifications: number;
  readonly #notifier: BatchedNotifier;

  // Working state, mutated in place; the snapshot copies it when it is read.
  /** Pending dialogs by id; insertion order is queue order. */
  readonly #dialogs = new Map<string, PendingDialog>();
  /**
   * The dialog the last snapshot named to show (see dialog-order.ts). Kept when it leaves until the next snapshot
   * is built, which chooses again only if it is still gone: a dialog the bridge's replay brings back (same id, in
   * the same burst) stays shown.
   */
  #shownId: string | undefined;
  readonly #statuses = new Map<string, StatusEntry>();
  /** Insertion order is display order: re-setting a key deletes and re-inserts it, so it moves to the end. */
  readonly #widgets = new Map<string, WidgetEntry>();
  readonly #notifications: NotificationEntry[] = [];
  readonly #notifyIds = new Set<string>();
  #notificationCount = 0;
  #title: string | undefined;
  #editorText: EditorText | undefined;
  #connection: TransportState;
  #connectionEnd: TransportEnd | undefined;
  #run: RunState = IDLE_RUN;
  #agentExit: AgentExit | undefined;

  /** The current snapshot, or undefined when something changed since it was built. */
  #snapshot: UiSnapshot | undefined;
  /** The snapshot built last: the next one keeps each of its parts whose items are unchanged (see `reuse`). */
  #lastSnapshot: UiSnapshot | undefined;
  /** Statuses sorted by key, kept until they change: sorting is the one costly step of a snapshot. */
  #sortedStatuses: readonly StatusEntry[] | undefined;

  constructor(options: UiStateOptions = {}) {
    const max = options.maxNotifications ?? DEFAULT_MAX_NOTIFICATIONS;
    // NaN or a negative size would make the buffer unbounded or nonsensical; fall back to the default.
    this.#maxNotifications = max >= 0 ? Math.floor(max) : DEFAULT_MAX_NOTIFICATIONS;
    this.#notifier = new BatchedNotifier(options.schedule ?? microtaskSchedule);
    this.#connection = options.connection ?? "open";
    if (this.#connection === "closed") this.#connectionEnd = options.connectionEnd ?? CLOSED_END;
  }

  /** The current snapshot: the same object until something changes (what `useSyncExternalStore` needs). */
  getSnapshot = (): UiSnapshot => {
    this.#snapshot ??= this.#buildSnapshot();
    return this.#snapshot;
  };

  /** `listener` runs once per batch of changes. Returns the unsubscribe function. */
  subscribe = (listener: () => void): (() => void) => this.#notifier.subscribe(listener);

  /**
   * Applies one validated request received at clock time `now`. Returns false only when a dialog with the same id
   * is already pending: the duplicate is ignored.
   */
  apply(request: ExtensionUiRequest, now: number): boolean {
    switch (request.method) {
      case "select":
      case "confirm":
      case "input":
      case "editor": {
        const timeout = request.method === "editor" ? undefined : request.timeout;
        // pi arms its own timer only for a truthy timeout, so 0 means "no timeout" there and here.
        return this.addDialog(request, now, timeout ? now + timeout : undefined);
      }
      case "notify":
        if (this.#notifyIds.has(request.id)) return true;
        this.#addNotification(toNotifyType(request.notifyType), request.message, now, undefined, request.id);
        this.#rememberNotify(request.id);
        break;
      case "setStatus":
        if (!this.#setStatus(request.statusKey, request.statusText)) return true;
        break;
      case "setWidget":
        this.#setWidget(request.widgetKey, request.widgetLines, request.widgetPlacement ?? "aboveEditor");
        break;
      case "setTitle":
        if (this.#title === request.title) return true;
        this.#title = request.title;
        break;
      case "set_editor_text":
        this.#editorText = { text: request.text ?? "", seq: (this.#editorText?.seq ?? 0) + 1 };
        break;
    }
    this.#changed();
    return true;
  }

  /** Queues a dialog received at `now` that ends at `deadline` (none when undefined); false for a pending id. */
  addDialog(request: DialogRequest, now: number, deadline: number | undefined): boolean {
    if (this.#dialogs.has(request.id)) return false;
    const dialog: PendingDialog =
      deadline === undefined
        ? { id: request.id, request, receivedAt: now }
        : { id: request.id, request, receivedAt: now, deadline };
    this.#dialogs.set(dialog.id, dialog);
    this.#changed();
    return true;
  }

  /** Puts `request` in place of the pending dialog with its id, keeping its place, arrival and deadline. */
  replaceDialogRequest(request: DialogRequest): boolean {
    const dialog = this.#dialogs.get(request.id);
    if (!dialog) return false;
    if (dialog.request !== request) {
      this.#dialogs.set(request.id, { ...dialog, request });
      this.#changed();
    }
    return true;
  }

  hasDialog(id: string): boolean {
    return this.#dialogs.has(id);
  }

  getDialog(id: string): PendingDialog | undefined {
    return this.#dialogs.get(id);
  }

  /**
   * Shows the pending dialog with this id instead of the one shown (the user picked it: a queue bar's Previous or
   * Next). False, and nothing changes, when no such dialog is pending.
   */
  showDialog(id: string): boolean {
    if (!this.#dialogs.has(id)) return false;
    if (this.#shownId !== id) {
      this.#shownId = id;
      this.#changed();
    }
    return true;
  }

  /** Removes a pending dialog (answered, expired or closed elsewhere); returns it, or undefined if it was not there. */
  removeDialog(id: string): PendingDialog | undefined {
    const dialog = this.#dialogs.get(id);
    if (!dialog) return undefined;
    this.#dialogs.delete(id);
    this.#changed();
    return dialog;
  }

  /** Removes every pending dialog and returns them in queue order. */
  clearDialogs(): PendingDialog[] {
    if (this.#dialogs.size === 0) return [];
    const removed = [...this.#dialogs.values()];
    this.#dialogs.clear();
    this.#changed();
    return removed;
  }

  /** The earliest deadline among pending dialogs, if any has one. */
  nextDeadline(): number | undefined {
    let earliest: number | undefined;
    for (const dialog of this.#dialogs.values()) {
      if (dialog.deadline !== undefined && (earliest === undefined || dialog.deadline < earliest)) {
        earliest = dialog.deadline;
      }
    }
    return earliest;
  }

  /** Removes the dialogs whose deadline is at or before `now` and returns them in queue order. */
  expire(now: number): PendingDialog[] {
    const expired = [...this.#dialogs.values()].filter(
      (dialog) => dialog.deadline !== undefined && dialog.deadline <= now,
    );
    for (const dialog of expired) this.removeDialog(dialog.id);
    return expired;
  }

  /** Clears statuses and widgets (pi never sends a reset; a client decides when a new context starts). */
  reset(): void {
    if (this.#statuses.size === 0 && this.#widgets.size === 0) return;
    this.#statuses.clear();
    this.#widgets.clear();
    this.#sortedStatuses = undefined;
    this.#changed();
  }

  /** `end`: why, when `connection` is "closed" (default: closed). */
  setConnection(connection: TransportState, end?: TransportEnd): void {
    if (this.#connection === connection) return;
    this.#connection = connection;
    if (connection === "closed") this.#connectionEnd = end ?? CLOSED_END;
    this.#changed();
  }

  /** What the run is doing now (the session's `reduceRun` decides it; see run.ts). */
  get run(): RunState {
    return this.#run;
  }

  setRun(run: RunState): void {
    if (this.#run === run) return;
    this.#run = run;
    this.#changed();
  }

  setAgentExit(agentExit: AgentExit | undefined): void {
    if (this.#agentExit === agentExit) return;
    this.#agentExit = agentExit;
    this.#changed();
  }

  /**
   * Sets a status as pi's `setStatus` does (`text` undefined clears it; the text is sanitized). Returns false when
   * nothing changed.
   */
  setStatus(key: string, text: string | undefined): boolean {
    if (!this.#setStatus(key, text)) return false;
    this.#changed();
    return true;
  }

  /** Sets a widget as pi's `setWidget` does (`lines` undefined clears it); a widget set again moves to the end. */
  setWidget(key: string, lines: readonly string[] | undefined, placement: WidgetPlacement = "aboveEditor"): void {
    this.#setWidget(key, lines, placement);
    this.#changed();
  }

  /** Adds a notification as pi's `notify` does, at clock time `now` (an unknown type is "info"). Returns its id. */
  notify(type: unknown, message: string, now: number): number {
    this.#addNotification(toNotifyType(type), message, now);
    this.#changed();
    return this.#notificationCount;
  }

  /** Returns false when nothing changed (same text again, or clearing a key that is not there). */
  #setStatus(key: string, raw: string | undefined): boolean {
    if (raw === undefined) {
      if (!this.#statuses.delete(key)) return false;
    } else {
      if (this.#statuses.get(key)?.raw === raw) return false;
      this.#statuses.set(key, { key, text: sanitizeStatusText(raw), raw });
    }
    this.#sortedStatuses = undefined;
    return true;
  }

  #setWidget(key: string, lines: readonly string[] | undefined, placement: WidgetPlacement): void {
    this.#widgets.delete(key);
    if (lines !== undefined) this.#widgets.set(key, { key, lines, placement });
  }

  /**
   * Adds notifications pi sent before this client connected (the bridge's replay), oldest first, marked `earlier`
   * and timed by their age; one this client already has (same pi request id) is skipped.
   */
  addEarlier(
    items: ReadonlyArray<{ id: string; type: NotificationEntry["type"]; message: string; ageMs: number }>,
    now: number,
  ): void {
    let added = false;
    for (const item of items) {
      if (this.#notifyIds.has(item.id)) continue;
      this.#notificationCount += 1;
      this.#notifications.push({
        id: this.#notificationCount,
        type: item.type,
        message: item.message,
        time: now - item.ageMs,
        earlier: true,
        requestId: item.id,
      });
      if (this.#notifications.length > this.#maxNotifications) this.#notifications.shift();
      this.#rememberNotify(item.id);
      added = true;
    }
    if (added) this.#changed();
  }

  /** pi's ids of the notifications kept, so the same one (live, then replayed) is shown once. */
  #rememberNotify(id: string): void {
    this.#notifyIds.add(id);
    // A few more ids than the buffer holds: enough to recognise any notification a replay can bring back.
    if (this.#notifyIds.size > this.#maxNotifications + 50) {
      this.#notifyIds.delete(this.#notifyIds.values().next().value as string);
    }
  }

  /** Adds an error the session reports itself (a failed command, an extension's error), as pi's notify would. */
  reportError(message: string, origin: NotificationOrigin, now: number): void {
    this.report("error", message, origin, now);
  }

  /** A problem the session reports (a warning or an error) with where it came from. */
  report(type: "warning" | "error", message: string, origin: NotificationOrigin, now: number): void {
    this.#addNotification(type, message, now, origin);
    this.#changed();
  }

  #addNotification(
    type: NotificationEntry["type"],
    message: string,
    time: number,
    origin?: NotificationOrigin,
    requestId?: string,
  ): void {
    this.#notificationCount += 1;
    this.#notifications.push({
      id: this.#notificationCount,
      type,
      message,
      time,
      ...(origin === undefined ? {} : { origin }),
      ...(requestId === undefined ? {} : { requestId }),
    });
    if (this.#notifications.length > this.#maxNotifications) this.#notifications.shift();
  }

  #changed(): void {
    this.#snapshot = undefined;
    this.#notifier.changed();
  }

  #buildSnapshot(): UiSnapshot {
    const previous = this.#lastSnapshot;
    const above: WidgetEntry[] = [];
    const below: WidgetEntry[] = [];
    for (const widget of this.#widgets.values()) (widget.placement === "belowEditor" ? below : above).push(widget);
    const aboveEditor = reuse(previous?.widgets.aboveEditor, above);
    const belowEditor = reuse(previous?.widgets.belowEditor, below);
    const widgets =
      previous && aboveEditor === previous.widgets.aboveEditor && belowEditor === previous.widgets.belowEditor
        ? previous.widgets
        : { aboveEditor, belowEditor };
    this.#sortedStatuses ??= reuse(
      previous?.statuses,
      [...this.#statuses.values()].sort((a, b) => byKey.compare(a.key, b.key)),
    );
    const dialogs = reuse(previous?.dialogs, [...this.#dialogs.values()]);
    if (this.#shownId === undefined || !this.#dialogs.has(this.#shownId)) this.#shownId = nextDialog(dialogs)?.id;
    const snapshot: UiSnapshot = {
      dialogs,
      shownDialogId: this.#shownId,
      statuses: this.#sortedStatuses,
      widgets,
      title: this.#title,
      editorText: this.#editorText,
      notifications: reuse(previous?.notifications, this.#notifications.slice()),
      notificationCount: this.#notificationCount,
      connection: this.#connection,
      connectionEnd: this.#connectionEnd,
      run: this.#run,
      agentExit: this.#agentExit,
    };
    this.#lastSnapshot = snapshot;
    return snapshot;
  }
}

/** Keeps the previous array when the new one holds the same items, so unchanged parts keep their identity. */
function reuse<T>(previous: readonly T[] | undefined, next: T[]): readonly T[] {
  if (next.length === 0) return previous?.length === 0 ? previous : EMPTY;
  if (previous && previous.length === next.length && previous.every((item, i) => item === next[i])) return previous;
  return next;
}

const NOTIFY_TYPES: ReadonlySet<string> = new Set(NOTIFY_TYPE_LIST);

/** pi's notify type as shown: one this client does not know (a newer pi's "success") is "info". */
export function toNotifyType(type: unknown): NotificationEntry["type"] {
  return typeof type === "string" && NOTIFY_TYPES.has(type) ? (type as NotificationEntry["type"]) : "info";
}
