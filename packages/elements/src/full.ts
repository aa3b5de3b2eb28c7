/**
 * Entry of `dist/pi-elements.full.bundle.js`, a complete pi web UI with no build step: every element (the extension
 * UI's, the conversation's and the session controls) registered and exported, with the core's session, transports
 * and conversation store, so a page of markup is a pi web UI. Lazily loaded parts (the highlighter's languages, the
 * word diff) are in `dist/chunks/` beside it.
 */
export { conversationOf } from "@pi-elements/core/conversation";
export * from "./bundle.js";
export * from "./elements/model-picker/define.js";
export * from "./elements/session-actions/define.js";
export * from "./elements/session-stats/define.js";
export * from "./elements/thinking-level/define.js";
export * from "./transcript.js";
