/**
 * Which sessions have a conversation store, without making one: `attachedConversation(session)`. An element that
 * shows part of the conversation only when the page keeps it (pi-prompt's queues and run state) reads it through
 * here, so that the extension UI's single file does not carry the reducer (`conversationOf` brings it in).
 *
 * One record per page, shared by every copy of the library (the extension-UI bundle beside the transcript bundle,
 * or a bundle beside the package's modules): kept under a global symbol, as the elements' session context is, so a
 * prompt from one copy sees the store a transcript from another made, and a session has one store on the page.
 */
import type { PiSession } from "../session/pi-session.js";
import type { ConversationStore } from "./snapshot.js";

type Registry = { stores: WeakMap<PiSession, ConversationStore>; listeners: Set<(session: PiSession) => void> };
const REGISTRY = Symbol.for("pi-elements/conversations");
/** The page's record, made on first use (importing this module leaves the page alone). */
function registry(): Registry {
  const shared = globalThis as { [REGISTRY]?: Registry };
  shared[REGISTRY] ??= { stores: new WeakMap(), listeners: new Set() };
  return shared[REGISTRY];
}

/** The conversation store `conversationOf(session)` made, or undefined while nothing has asked for one. */
export function attachedConversation(session: PiSession): ConversationStore | undefined {
  return registry().stores.get(session);
}

/** Calls `listener` each time a session gets its conversation store. Returns the unsubscribe. */
export function onConversationAttached(listener: (session: PiSession) => void): () => void {
  const { listeners } = registry();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** For `conversationOf`: records the store it made. */
export function registerConversation(session: PiSession, store: ConversationStore): void {
  const { stores, listeners } = registry();
  stores.set(session, store);
  for (const listener of listeners) listener(session);
}
