import { type NotificationDismissDetail, PiNotifications } from "./notifications.js";

export type { NotificationDismissDetail };
export { PiNotifications };

if (!customElements.get("pi-notifications")) customElements.define("pi-notifications", PiNotifications);

declare global {
  interface HTMLElementTagNameMap {
    "pi-notifications": PiNotifications;
  }
  interface GlobalEventHandlersEventMap {
    "pi-notification-dismiss": CustomEvent<NotificationDismissDetail>;
  }
}
