import type { TransportEnd, UiSnapshot } from "@pi-elements/core";
import type { StringKey } from "../i18n/strings.js";

/**
 * The words for a session that ended: a bridge that refused the page's token has its own, which say what to do (a
 * retry cannot help, the address the bridge printed can); every other end, the general ones.
 */
export function sessionEndKey(end: TransportEnd | undefined): StringKey {
  return end?.reason === "refused" ? "tokenRefused" : "sessionEnded";
}

/**
 * The session-store slice of a control that nothing can reach while the agent process is gone (its exit reported):
 * `down` is true until the bridge reports it started again.
 */
export function agentDown(snapshot: UiSnapshot): { down: boolean } {
  return { down: snapshot.agentExit !== undefined };
}
