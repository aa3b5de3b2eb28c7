/**
 * The extension-UI state a session keeps, as an immutable snapshot. Each change produces a new snapshot object;
 * parts that did not change keep their identity, so a renderer can compare by reference.
 */

import type { DialogRequest, NotifyType, WidgetPlacement } from "../protocol/extension-ui.js";
import type { TransportEnd, TransportState } from "../transports/transport.js";
import type { RunState } from "./run.js";

export interface PendingDialog {
  /** The request id; the answer must carry it. */
  readonly id: string;
  readonly request: DialogRequest;
  /** Clock time (ms) when the request arrived. */
  readonly receivedAt: number;
  /** Clock time (ms) when the client cancels it; absent for dialogs without a timeout (editor never has one). */
  readonly deadline?: number;
}

export interface StatusEntry {
  readonly key: string;
  /** pi's sanitized text: `\r \n \t` to spaces, runs of spaces collapsed, trimmed. ANSI sequences kept. */
  readonly text: string;
  /** The text exactly as the extension sent it. */
  readonly raw: string;
}

export interface WidgetEntry {
  readonly key: string;
  readonly lines: readonly string[];
  readonly placement: WidgetPlacement;
}

/**
 * Where a notification came from when pi did not send it as a `notify`: a command pi answered with
 * `success: false` (its `error` is the message), an `extension_error` event (the extension's error is the message), or
 * a diagnostic the agent wrote to its stderr (through the bridge).
 */
export type NotificationOrigin =
  | { readonly kind: "command"; readonly command: string }
  /** What the agent process itself reported on its stderr (the bridge's `pi-elements/agent_diagnostic`). */
  | { readonly kind: "agent" }
  | { readonly kind: "extension"; readonly extensionPath?: string; readonly event?: string };

export interface NotificationEntry {
  /** Increasing per session, starting at 1. */
  readonly id: number;
  readonly type: NotifyType;
  readonly message: string;
  /** Clock time (ms) it arrived. */
  readonly time: number;
  /** Set for a failure the session reports itself; absent for pi's own `notify`. */
  readonly origin?: NotificationOrigin;
  /** Sent before this page connected (the bridge's replay): shown as earlier, never announced as new. */
  readonly earlier?: true;
  /**
   * pi's id of the `notify` request it came from: the same in every tab and after a reload, so a page can remember
   * what the person dismissed. Absent for a failure the session reports itself.
   */
  readonly requestId?: string;
}

export interface EditorText {
  readonly text: string;
  /** Increases on every set_editor_text, so setting the same text twice is still a change. */
  readonly seq: number;
}

export interface AgentExit {
  readonly code: number | null;
  readonly signal?: string | null;
  readonly stderrTail: readonly string[];
  /**
   * Whether asking for a restart (`PiSession.restartAgent()`) can bring the agent back: "on-request" (it can),
   * "always" (the bridge restarts it by itself; asking does it now), "never" (the bridge was started with
   * `--restart never`: only restarting the bridge can), or "unknown" (a bridge that does not say; asking may help).
   */
  readonly restart: "on-request" | "always" | "never" | "unknown";
}

export interface UiSnapshot {
  /**
   * The dialogs waiting for an answer, oldest first (the order a queue bar counts them in). Which one to show is
   * `shownDialogId`, not `dialogs[0]`. Empty once the session has ended (`connection` "closed"): a closed session's
   * dialogs can no longer be answered, so they leave (each with a `dialog-closed` event, reason "closed").
   */
  readonly dialogs: readonly PendingDialog[];
  /**
   * The id of the dialog to show, one of `dialogs` (undefined when there is none), chosen by the store so that every
   * host of the session shows the same one: it stays while it is pending (a dialog that arrives never replaces it)
   * unless the user picks another (`PiSession.showDialog`); when it leaves, the waiting dialog with the earliest
   * deadline comes next, else the oldest. `shownDialog(snapshot)` returns the dialog itself.
   */
  readonly shownDialogId: string | undefined;
  /** Sorted by key with `localeCompare`, as pi's status line. */
  readonly statuses: readonly StatusEntry[];
  readonly widgets: {
    readonly aboveEditor: readonly WidgetEntry[];
    readonly belowEditor: readonly WidgetEntry[];
  };
  readonly title: string | undefined;
  readonly editorText: EditorText | undefined;
  /** Newest last, at most the session's `maxNotifications`. */
  readonly notifications: readonly NotificationEntry[];
  /** Total notifications ever received, so a UI can say "+N more" beyond the buffer. */
  readonly notificationCount: number;
  /**
   * The transport's state. "closed" is final: the session has ended for good (`close()`, a stream whose readable
   * ended, a WebSocket past its reconnect attempts), nothing more is sent or received, and `dialogs` is empty.
   */
  readonly connection: TransportState;
  /**
   * Once `connection` is "closed": why (the transport's `end`). "refused" is a bridge that will not take this page
   * (its token is wrong, or stale after the bridge restarted): retrying cannot help, a new address can.
   */
  readonly connectionEnd: TransportEnd | undefined;
  /**
   * What pi's run is doing: `run.working` from agent_start to the run's end (0.73's agent_end, 1.x's agent_settled),
   * while pi refuses a prompt; compacting, waiting to retry, or stopped by an abort. Decided once, here, by
   * `reduceRun` (run.ts) over pi's events, its answers to `get_state` and the bridge's messages; the conversation
   * store and every element read it.
   */
  readonly run: RunState;
  /** Set when the bridge reports that the agent process ended; cleared when it starts again. */
  readonly agentExit: AgentExit | undefined;
}

/** The store API, shaped for React's `useSyncExternalStore(store.subscribe, store.getSnapshot)`. */
export interface UiStore {
  getSnapshot(): UiSnapshot;
  /** `listener` runs once per batch of changes (a burst in one chunk is one batch). Returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}
