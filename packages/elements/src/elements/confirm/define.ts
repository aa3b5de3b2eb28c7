import { PiConfirm } from "./confirm.js";

export { PiConfirm };

if (!customElements.get("pi-confirm")) customElements.define("pi-confirm", PiConfirm);

declare global {
  interface HTMLElementTagNameMap {
    "pi-confirm": PiConfirm;
  }
}
