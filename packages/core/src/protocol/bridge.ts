/**
 * Messages the pi-elements bridge adds to the stream. Their `type` starts with `pi-elements/`, a namespace pi
 * never uses (pi's types are snake_case words), so they cannot collide with a current or future pi message.
 */
import * as z from "zod/mini";

export const BRIDGE_PREFIX = "pi-elements/";

/** A pending dialog left the queue without this client answering it (another client did, or the agent exited). */
export const BridgeDialogClosed = z.looseObject({
  type: z.literal("pi-elements/dialog_closed"),
  id: z.string(),
  reason: z.enum(["answered", "expired", "agent_exit"]),
});
/**
 * The agent process ended. `restart` is the bridge's restart policy ("never", "on-request", "always"; read as a
 * string, so that a policy this client does not know is no invalid message): whether a `pi-elements/restart` helps.
 */
export const BridgeAgentExit = z.looseObject({
  type: z.literal("pi-elements/agent_exit"),
  code: z.nullable(z.number()),
  signal: z.optional(z.nullable(z.string())),
  stderrTail: z.optional(z.array(z.string())),
  restart: z.optional(z.string()),
});
/**
 * A problem the agent reported on its stderr in pi's own diagnostic form, a line `Warning: …` or `Error: …` (pi 1.x
 * writes one after `switch_session`, `fork` or `new_session` when, for example, the session's model cannot be
 * restored). `level` is read as a string, so that a level this client does not know is no invalid message.
 */
export const BridgeAgentDiagnostic = z.looseObject({
  type: z.literal("pi-elements/agent_diagnostic"),
  level: z.string(),
  message: z.string(),
});
/** The agent process (re)started. */
export const BridgeAgentStart = z.looseObject({
  type: z.literal("pi-elements/agent_start"),
  pid: z.optional(z.number()),
});
/**
 * Sent first on every connection. The client drops its extension-UI state (statuses, widgets, pending dialogs);
 * the bridge's replay follows as ordinary extension_ui_request lines, timed dialogs with `timeout` set to the time
 * that remains.
 */
export const BridgeHello = z.looseObject({
  type: z.literal("pi-elements/hello"),
  protocol: z.literal(1),
});
/**
 * Sent after the replay to a page that connects while the agent runs: the latest notifications, oldest first, each
 * with its age in ms and pi's request id (so a page that saw it live does not show it twice). A client shows them as
 * earlier and does not announce them.
 */
export const BridgeEarlierNotifications = z.looseObject({
  type: z.literal("pi-elements/earlier_notifications"),
  notifications: z.array(
    z.looseObject({
      id: z.string(),
      notifyType: z.optional(z.unknown()),
      message: z.string(),
      ageMs: z.number().check(z.nonnegative()),
    }),
  ),
});
export const BridgeMessage = z.discriminatedUnion("type", [
  BridgeDialogClosed,
  BridgeAgentExit,
  BridgeAgentStart,
  BridgeAgentDiagnostic,
  BridgeHello,
  BridgeEarlierNotifications,
]);
export type BridgeMessage = z.infer<typeof BridgeMessage>;
/**
 * Client -> bridge: restart the agent (stopping it first if it still runs). Honoured under the bridge's
 * `on-request` and `always` restart policies, ignored under `never`. Never forwarded to the agent.
 */
// Pure-annotated (see ExtensionUiResponse): only the bridge reads it, so client bundles drop it.
export const BridgeRestart = /* @__PURE__ */ (() => z.looseObject({ type: z.literal("pi-elements/restart") }))();
export type BridgeRestart = z.infer<typeof BridgeRestart>;
export type BridgeDialogClosed = z.infer<typeof BridgeDialogClosed>;
export type BridgeAgentExit = z.infer<typeof BridgeAgentExit>;
export type BridgeAgentDiagnostic = z.infer<typeof BridgeAgentDiagnostic>;
export type BridgeEarlierNotifications = z.infer<typeof BridgeEarlierNotifications>;

export function isBridgeType(type: unknown): boolean {
  return typeof type === "string" && type.startsWith(BRIDGE_PREFIX);
}
