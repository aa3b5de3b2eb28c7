/**
 * `<pi-tool-card>`: registers the tag and exports what a page needs with it. Not part of the extension-UI bundle
 * (`extension-ui.js`): registering pi-transcript registers it, and `all.js` does.
 */
import { PiToolCard, type ToolCardToggleDetail } from "./tool-card.js";

export { languageForPath } from "./language.js";
export { MAX_EXPANDED_LINES, MAX_WINDOW_CHARS, resultText } from "./output.js";
export {
  type OutputOptions,
  registerToolRenderer,
  TOOL_CARD_LIMITS,
  type ToolCallBlock,
  type ToolCardLimits,
  type ToolCardStatus,
  type ToolRenderContext,
  type ToolRenderer,
  type ToolRendererOptions,
} from "./registry.js";
export { PREVIEW_LINES } from "./renderers.js";
export { type ToolCardStringKey, type ToolCardStringTable, toolCardStrings } from "./strings.js";
export type { ToolCardToggleDetail };
export { PiToolCard };

if (!customElements.get("pi-tool-card")) customElements.define("pi-tool-card", PiToolCard);

declare global {
  interface HTMLElementTagNameMap {
    "pi-tool-card": PiToolCard;
  }
  interface GlobalEventHandlersEventMap {
    "pi-tool-card-toggle": CustomEvent<ToolCardToggleDetail>;
  }
}
