import "../select/define.js";
import "../confirm/define.js";
import "../input/define.js";
import "../editor/define.js";
import { PiExtensionUi } from "./extension-ui.js";

export { PiExtensionUi };

if (!customElements.get("pi-extension-ui")) customElements.define("pi-extension-ui", PiExtensionUi);

declare global {
  interface HTMLElementTagNameMap {
    "pi-extension-ui": PiExtensionUi;
  }
}
