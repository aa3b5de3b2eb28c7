import type { TransportEnd } from "@pi-elements/core";
import type { StringKey } from "../i18n/strings.js";

/**
 * The words for a session that ended: a bridge that refused the page's token has its own, which say what to do (a
 * retry cannot help, the address the bridge printed can); every other end, the general ones.
 */
export function sessionEndKey(end: TransportEnd | undefined): StringKey {
  return end?.reason === "refused" ? "tokenRefused" : "sessionEnded";
}
