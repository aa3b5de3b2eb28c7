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
 * The session-store slice of a control that nothing can reach while the agent process is gone (its exit reported,
 * until the bridge reports it started again) or the session has ended for good (`connection` "closed": a bridge that
 * refused the page's token, a stream that ended): `down` then, and `ended` for the second, whose words beside a
 * control are the short `sessionEndedShort` (pi-prompt and pi-extension-ui say why and what to do, once).
 */
export function agentDown(snapshot: UiSnapshot): { down: boolean; ended: boolean } {
  const ended = snapshot.connection === "closed";
  return { down: ended || snapshot.agentExit !== undefined, ended };
}
