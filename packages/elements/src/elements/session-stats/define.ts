import { PiSessionStats } from "./session-stats.js";

export { PiSessionStats };

if (!customElements.get("pi-session-stats")) customElements.define("pi-session-stats", PiSessionStats);

declare global {
  interface HTMLElementTagNameMap {
    "pi-session-stats": PiSessionStats;
  }
}
