import { PiThinkingLevel } from "./thinking-level.js";

export { PiThinkingLevel };

if (!customElements.get("pi-thinking-level")) customElements.define("pi-thinking-level", PiThinkingLevel);

declare global {
  interface HTMLElementTagNameMap {
    "pi-thinking-level": PiThinkingLevel;
  }
}
