/**
 * `@pi-elements/core/conversation`: the conversation store (`conversationOf(session)`), its reducer, message types
 * and schemas, and the refresh rule. Its own entry, so that a page that shows only the extension UI pays nothing for
 * it (the reducer, its zod/mini schemas and jsonrepair). `attachedConversation` and the queue's functions (queue.ts)
 * are light: an element of the extension UI (pi-prompt) uses them without bringing the reducer in.
 */

export { attachedConversation, onConversationAttached } from "./attached.js";
export * from "./conversation-of.js";
export * from "./conversation-state.js";
export * from "./messages.js";
export * from "./queue.js";
export type * from "./snapshot.js";
export { parseArguments, StreamingAssistant } from "./streaming.js";
export * from "./sync.js";
