/**
 * Remembers where focus was when a dialog opened (the dialog then focuses its own control) and gives it back when
 * the dialog closes or is removed while open, as the APG dialog pattern asks. Focus is only given back when it is still inside the dialog or lost to
 * `<body>`: if the user has clicked elsewhere meanwhile, that choice wins.
 */
import type { ReactiveController, ReactiveControllerHost } from "lit";

/** The focused element in the document, looking through open shadow roots. */
export function deepActiveElement(): Element | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

export class FocusReturnController implements ReactiveController {
  readonly #host: ReactiveControllerHost & HTMLElement;
  #returnTo: HTMLElement | undefined;

  constructor(host: ReactiveControllerHost & HTMLElement) {
    this.#host = host;
    host.addController(this);
  }

  /** Remembers the focused element (call before moving focus into the dialog). */
  remember(): void {
    const active = deepActiveElement();
    if (active instanceof HTMLElement && !this.#contains(active)) this.#returnTo = active;
  }

  /** Gives focus back to the remembered element. */
  restore(): void {
    const returnTo = this.#returnTo;
    this.#returnTo = undefined;
    if (!returnTo?.isConnected) return;
    const active = deepActiveElement();
    if (active === null || active === document.body || this.#contains(active)) returnTo.focus();
  }

  #contains(node: Node): boolean {
    const host = this.#host;
    // contains() is true for the node itself.
    return host.contains(node) || host.shadowRoot?.contains(node) === true;
  }

  hostDisconnected(): void {
    this.restore();
  }
}
