import { PiSelect } from "./select.js";

export { PiSelect };

if (!customElements.get("pi-select")) customElements.define("pi-select", PiSelect);

declare global {
  interface HTMLElementTagNameMap {
    "pi-select": PiSelect;
  }
}
