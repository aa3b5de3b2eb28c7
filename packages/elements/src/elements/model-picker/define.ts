import { PiModelPicker } from "./model-picker.js";

export { PiModelPicker };

if (!customElements.get("pi-model-picker")) customElements.define("pi-model-picker", PiModelPicker);

declare global {
  interface HTMLElementTagNameMap {
    "pi-model-picker": PiModelPicker;
  }
}
