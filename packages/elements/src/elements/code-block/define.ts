import { CODE_BLOCK_LIMITS, type CodeBlockLimits, PiCodeBlock } from "./code-block.js";

export { CODE_BLOCK_LIMITS, type CodeBlockLimits, PiCodeBlock };

if (!customElements.get("pi-code-block")) customElements.define("pi-code-block", PiCodeBlock);

declare global {
  interface HTMLElementTagNameMap {
    "pi-code-block": PiCodeBlock;
  }
}
