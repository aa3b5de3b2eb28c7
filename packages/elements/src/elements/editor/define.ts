import { PiEditor } from "./editor.js";

export { PiEditor };

if (!customElements.get("pi-editor")) customElements.define("pi-editor", PiEditor);

declare global {
  interface HTMLElementTagNameMap {
    "pi-editor": PiEditor;
  }
}
