import { PiWidgetSlot, type WidgetInput, type WidgetToggleDetail } from "./widget-slot.js";

export type { WidgetInput, WidgetToggleDetail };
export { PiWidgetSlot };

if (!customElements.get("pi-widget-slot")) customElements.define("pi-widget-slot", PiWidgetSlot);

declare global {
  interface HTMLElementTagNameMap {
    "pi-widget-slot": PiWidgetSlot;
  }
  interface GlobalEventHandlersEventMap {
    "pi-widget-toggle": CustomEvent<WidgetToggleDetail>;
  }
}
