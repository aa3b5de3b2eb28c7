import { PiSessionActions } from "./session-actions.js";

export { PiSessionActions };

if (!customElements.get("pi-session-actions")) customElements.define("pi-session-actions", PiSessionActions);

declare global {
  interface HTMLElementTagNameMap {
    "pi-session-actions": PiSessionActions;
  }
}
