/**
 * Every pi-* event is a CustomEvent that bubbles and crosses shadow roots (composed), so a page can listen on any
 * ancestor. Made in this one module function rather than inline in each element: the custom-elements-manifest
 * analyzer reads `dispatchEvent(new CustomEvent(name, …))` inside a class as an event called `name`, and would
 * invent events named after variables; the elements' events are documented with `@event` tags instead.
 */

/** The `detail` type of a pi-* event, from its `GlobalEventHandlersEventMap` entry. */
export type EventDetail<K extends keyof GlobalEventHandlersEventMap> =
  GlobalEventHandlersEventMap[K] extends CustomEvent<infer D> ? D : never;

/**
 * Dispatches `type` from `target` as a bubbling, composed CustomEvent with `detail`. Returns false when the event is
 * cancelable and a listener called `preventDefault()`, as `dispatchEvent` does.
 */
export function emit<K extends keyof GlobalEventHandlersEventMap>(
  target: EventTarget,
  type: K,
  detail: EventDetail<K>,
  cancelable = false,
): boolean {
  return target.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true, cancelable }));
}

/** What asked a dialog to close: Escape, a click on a modal's backdrop, or its Cancel button. */
export type CloseRequestSource = "keyboard" | "backdrop" | "button";

/**
 * Asks the page whether a dialog the user is dismissing may be cancelled: fires a cancelable `pi-request-close`
 * from `target` (the dialog element, also when pi-extension-ui shows it) and returns false when a listener called
 * `preventDefault()`, so the dialog stays open and nothing is sent.
 */
export function requestClose(target: EventTarget, source: CloseRequestSource): boolean {
  return emit(target, "pi-request-close", { source }, true);
}
