import { PiCodeBlock } from "./code-block.js";

export { PiCodeBlock };

if (!customElements.get("pi-code-block")) customElements.define("pi-code-block", PiCodeBlock);

declare global {
  interface HTMLElementTagNameMap {
    "pi-code-block": PiCodeBlock;
  }
}
