/**
 * Which sessions have a conversation store, without making one: `attachedConversation(session)`. An element that
 * shows part of the conversation only when the page keeps it (pi-prompt's queues and run state) reads it through
 * here, so that the extension UI's single file does not carry the reducer (`conversationOf` brings it in).
 */
import type { PiSession } from "../session/pi-session.js";
import type { ConversationStore } from "./snapshot.js";

const stores = new WeakMap<PiSession, ConversationStore>();
const listeners = new Set<(session: PiSession) => void>();

/** The conversation store `conversationOf(session)` made, or undefined while nothing has asked for one. */
export function attachedConversation(session: PiSession): ConversationStore | undefined {
  return stores.get(session);
}

/** Calls `listener` each time a session gets its conversation store. Returns the unsubscribe. */
export function onConversationAttached(listener: (session: PiSession) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** For `conversationOf`: records the store it made. */
export function registerConversation(session: PiSession, store: ConversationStore): void {
  stores.set(session, store);
  for (const listener of listeners) listener(session);
}
