import { PiSessionElement, type SessionChangeDetail } from "./session.js";

export type { SessionChangeDetail };
export { PiSessionElement };

if (!customElements.get("pi-session")) customElements.define("pi-session", PiSessionElement);

declare global {
  interface HTMLElementTagNameMap {
    "pi-session": PiSessionElement;
  }
  interface GlobalEventHandlersEventMap {
    "pi-session-change": CustomEvent<SessionChangeDetail>;
  }
}
