import { PiInput } from "./input.js";

export { PiInput };

if (!customElements.get("pi-input")) customElements.define("pi-input", PiInput);

declare global {
  interface HTMLElementTagNameMap {
    "pi-input": PiInput;
  }
}
