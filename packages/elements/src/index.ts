/**
 * Every element class (each element of custom-elements.json) and the shared pieces, without registering any tag:
 * import this to subclass an element or register it under another name. `@pi-elements/elements/all.js` registers
 * every element; `extension-ui.js` and `transcript.js` a set each; each `@pi-elements/elements/elements/<name>.js`
 * registers one (and what it draws inside: pi-transcript its messages' pi-markdown and pi-tool-card).
 */
export * from "./elements/code-block/code-block.js";
export { MARKDOWN_LIMITS, type MarkdownLimits } from "./elements/markdown/block-lexer.js";
export * from "./elements/markdown/markdown.js";
export * from "./elements/model-picker/model-picker.js";
export * from "./elements/session-actions/session-actions.js";
export * from "./elements/session-stats/session-stats.js";
export * from "./elements/thinking-level/thinking-level.js";
export { TOOL_CARD_LIMITS, type ToolCardLimits } from "./elements/tool-card/registry.js";
export * from "./elements/tool-card/tool-card.js";
export * from "./elements/transcript/transcript.js";
export * from "./extension-ui-classes.js";
