import { PiStatusBar, type StatusInput } from "./status-bar.js";

export type { StatusInput };
export { PiStatusBar };

if (!customElements.get("pi-status-bar")) customElements.define("pi-status-bar", PiStatusBar);

declare global {
  interface HTMLElementTagNameMap {
    "pi-status-bar": PiStatusBar;
  }
}
