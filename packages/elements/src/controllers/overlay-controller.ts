/**
 * The one owner of a dialog's overlay: the native `<dialog>`, inline (open, in the flow of the page) or modal
 * (`showModal()`: top layer, the page behind inert, a backdrop), focus moved in when it opens and given back when it
 * closes, and the ways a user dismisses it (Escape's close request, a click on a modal's backdrop). A dialog element
 * used on its own and `pi-extension-ui` both put their content in one; a dialog element shown by `pi-extension-ui`
 * renders no overlay of its own.
 *
 * Focus is given back (as the APG dialog pattern asks) only when it is still inside the overlay or lost to `<body>`:
 * if the user has clicked elsewhere meanwhile, that choice wins. When the element that had it is gone or cannot take
 * it any more (a button removed or disabled while the dialog was open, or focus was on `<body>` when it opened), it
 * goes to the host's `returnFallback`, the next logical place (APG: "another element that provides logical workflow").
 */
import { html, nothing, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from "lit";

export type OverlayCancelSource = "keyboard" | "backdrop";

export interface OverlayOptions {
  /** The user asked to dismiss the overlay: Escape (its close request) or a click on the modal's backdrop. */
  onCancel(source: OverlayCancelSource): void;
  /** What takes focus when the overlay opens or `enter()` is called; it is focused once its own update is done. */
  focusTarget(): HTMLElement | null | undefined;
  /**
   * True for an Escape keydown the overlay must leave alone: one that ends an IME composition, or one from content
   * that answers Escape itself (and left it, for a reason of its own). Default: none.
   */
  ignoreEscape?(event: KeyboardEvent): boolean;
  /**
   * Where focus goes back to when the element that had it before the overlay opened is gone, disabled, or was the
   * page's `<body>`. Default: nowhere (focus stays where the browser puts it).
   */
  returnFallback?(): HTMLElement | null | undefined;
}

/**
 * How the overlay's `<dialog>` is named and described: by ids in the host's shadow root, or (content of another
 * shadow root, which ids cannot reach) by text.
 */
export interface OverlayAria {
  role?: "alertdialog" | undefined;
  labelledby?: string | undefined;
  describedby?: string | undefined;
  label?: string | undefined;
  description?: string | undefined;
}

/** The focused element in the document, looking through open shadow roots. */
export function deepActiveElement(): Element | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

export class OverlayController implements ReactiveController {
  readonly #host: ReactiveControllerHost & HTMLElement;
  readonly #options: OverlayOptions;
  #open = false;
  #modal = false;
  #entering = false;
  #returnTo: HTMLElement | undefined;
  /** The overlay opened and has not given focus back yet. */
  #mustReturn = false;
  /** The last keydown was an Escape the overlay leaves alone: the close request it makes is not the user's cancel. */
  #leftEscape = false;

  constructor(host: ReactiveControllerHost & HTMLElement, options: OverlayOptions) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  get open(): boolean {
    return this.#open;
  }

  /**
   * Opens or closes the overlay on the host's next update. Opening remembers the focused element and moves focus
   * in; closing gives it back. `modal` may change while open: the `<dialog>` is shown again the other way.
   */
  set(open: boolean, modal: boolean): void {
    if (modal !== this.#modal) {
      this.#modal = modal;
      this.#host.requestUpdate();
    }
    if (open === this.#open) return;
    this.#open = open;
    if (open) {
      this.#remember();
      this.#entering = true;
    }
    this.#host.requestUpdate();
  }

  /** Moves focus to the focus target after the next update (new content in an overlay already open). */
  enter(): void {
    this.#entering = true;
    this.#host.requestUpdate();
  }

  /**
   * The `<dialog>` around `content`; a host renders one. It is the host's main part: `base`, and `dialog`, its
   * earlier name, kept as an alias.
   */
  render(content: unknown, aria: OverlayAria = {}, part = "base dialog"): TemplateResult {
    return html`<dialog
      part=${part}
      role=${aria.role ?? nothing}
      aria-labelledby=${aria.labelledby ?? nothing}
      aria-describedby=${aria.describedby || nothing}
      aria-label=${aria.label ?? nothing}
      aria-description=${aria.description || nothing}
      @cancel=${this.#onNativeCancel}
      @keydown=${this.#onKeydown}
      @click=${this.#onClick}
    >${content}</dialog>`;
  }

  hostUpdated(): void {
    // The one <dialog> of the host's own shadow root (a dialog element's inside the host is in its own).
    const dialog = this.#host.shadowRoot?.querySelector("dialog");
    if (dialog) {
      if (this.#open) {
        // Shown the other way (inline <-> modal) since it opened: close it to show it again.
        if (dialog.open && dialog.matches(":modal") !== this.#modal) dialog.close();
        // Inline, the open attribute rather than show(): show() would first focus the <dialog> itself (no control in
        // it can take focus before the content has rendered), a needless hop before focus moves to the control.
        if (!dialog.open) {
          if (this.#modal) dialog.showModal();
          else dialog.setAttribute("open", "");
        }
      } else if (dialog.open) {
        dialog.close();
      }
    }
    if (!this.#open) this.#restore();
    else if (this.#entering) {
      this.#entering = false;
      const target = this.#options.focusTarget();
      const focus = () => {
        if (this.#open && target?.isConnected && !target.matches(":focus-within")) target.focus();
      };
      // An element that renders itself (a dialog element in pi-extension-ui) is focused once it has rendered.
      const pending = (target as (HTMLElement & { updateComplete?: Promise<unknown> }) | null | undefined)
        ?.updateComplete;
      if (pending) void pending.then(focus);
      else focus();
    }
  }

  hostDisconnected(): void {
    this.#restore();
  }

  #remember(): void {
    const active = deepActiveElement();
    this.#mustReturn = true;
    this.#returnTo =
      active instanceof HTMLElement && active !== document.body && !this.#contains(active) ? active : undefined;
  }

  #restore(): void {
    if (!this.#mustReturn) return;
    const returnTo = this.#returnTo;
    this.#returnTo = undefined;
    this.#mustReturn = false;
    const active = deepActiveElement();
    if (active !== null && active !== document.body && !this.#contains(active)) return;
    if (returnTo?.isConnected) {
      returnTo.focus();
      if (deepActiveElement() === returnTo) return;
    }
    const fallback = this.#options.returnFallback?.();
    if (fallback?.isConnected) fallback.focus();
  }

  #contains(node: Node): boolean {
    const host = this.#host;
    // contains() is true for the node itself.
    return host.contains(node) || host.shadowRoot?.contains(node) === true;
  }

  /** The `<dialog>`'s own close request (Escape on a modal): cancel instead of just hiding it. */
  readonly #onNativeCancel = (event: Event): void => {
    event.preventDefault();
    const left = this.#leftEscape;
    this.#leftEscape = false;
    if (!left) this.#options.onCancel("keyboard");
  };

  /**
   * Escape in a modal, taken before it becomes the `<dialog>`'s close request (content that handles Escape itself,
   * as a dialog element does, prevents it first). A page may veto the cancel (`pi-request-close`), and Chromium and
   * Firefox stop honouring a prevented close request when no user activation came between two: the second Escape
   * would close the `<dialog>` with pi's dialog still pending.
   */
  readonly #onKeydown = (event: KeyboardEvent): void => {
    this.#leftEscape = false;
    if (!this.#modal || event.key !== "Escape" || event.defaultPrevented) return;
    if (event.isComposing || this.#options.ignoreEscape?.(event)) {
      // Chromium still makes it the <dialog>'s close request: that one must not cancel either.
      this.#leftEscape = true;
      return;
    }
    event.preventDefault();
    this.#options.onCancel("keyboard");
  };

  /** The platform gives no backdrop event: a click whose target is the modal itself, outside its box. */
  readonly #onClick = (event: MouseEvent): void => {
    const dialog = event.currentTarget as HTMLDialogElement;
    if (!this.#modal || event.target !== dialog) return;
    const box = dialog.getBoundingClientRect();
    const inside =
      event.clientX >= box.left &&
      event.clientX <= box.right &&
      event.clientY >= box.top &&
      event.clientY <= box.bottom;
    if (!inside) this.#options.onCancel("backdrop");
  };
}
