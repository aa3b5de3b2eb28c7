/**
 * Keeps a press the user did not mean for a dialog from answering it. Two accidents, one rule:
 * - A key held down when the dialog opens: the user presses Enter to send a prompt, a permission gate appears while
 *   the key is still down, and its auto-repeat (or a late synthetic event) must not confirm the gate.
 * - A second press of a double press: the user presses Enter twice (or double-clicks, or taps twice), the first
 *   sends the prompt, the agent's confirm appears some milliseconds later, and the second press lands on it.
 *
 * The rule: a key press, click or tap that began before the dialog had been on screen for its arming time never
 * answers it. While it arms, the host's controls carry `aria-disabled="true"` (the dialog styles them as not active
 * yet). Escape (cancelling, which is never destructive: pi gets what a timeout gives it) and Tab (moving focus,
 * which answers nothing) work at once; a press from before the dialog opened is ignored even so.
 *
 * One page-wide tracker (capture listeners on `window`, installed when this module loads, so it sees presses that
 * happen before any dialog exists) remembers when each held key and the latest pointer press went down: its
 * `event.timeStamp` (the performance clock) and its place in the order of presses the page has seen. The arming time
 * itself runs on the session's clock (a `Clock`), so a test moves it with a manual clock; when it ends, the guard notes
 * the performance time and how many presses the page has seen, and from then on only a press that came later on both
 * counts gets through. Both are needed: the timestamp catches an event created before that instant and delivered
 * after it (a busy main thread), the order catches a press in the same tick of a coarse clock (Firefox and WebKit give
 * pages whole milliseconds, so a press 0.3 ms before arming ended would otherwise look simultaneous, and pass).
 * Blocked events are stopped on the host, in the capture phase, before they reach the dialog's controls: this also
 * keeps a held Enter from "clicking" a focused button.
 */
import type { Clock } from "@pi-elements/core";
import type { ReactiveController, ReactiveControllerHost } from "lit";

/** When a press began: its event's timeStamp, and its number in the order of presses (keys and pointers) seen. */
interface Press {
  at: number;
  order: number;
}

/** A press from before anything was seen (a key already held when this module loaded, or across a blur). */
const ANCIENT: Press = { at: Number.NEGATIVE_INFINITY, order: Number.NEGATIVE_INFINITY };

/** How many presses the page has seen begin; the latest press's `order`. */
let pressesSeen = 0;
/** code (or key) -> the keydown that started the current press of that key. */
const keyPressStarted = new Map<string, Press>();
/** The latest pointerdown (mouse button, finger, pen) anywhere on the page. */
let pointerPressStarted = ANCIENT;

function keyId(event: KeyboardEvent): string {
  return event.code || event.key;
}

if (typeof window !== "undefined") {
  window.addEventListener(
    "keydown",
    (event) => {
      const id = keyId(event);
      // A repeat with no recorded press was held since before this module loaded (or the window had no focus).
      if (!event.repeat) keyPressStarted.set(id, { at: event.timeStamp, order: ++pressesSeen });
      else if (!keyPressStarted.has(id)) keyPressStarted.set(id, ANCIENT);
    },
    true,
  );
  // No entry is removed on keyup: the key's keyup (and a Space's click after it) must still be matched to its press,
  // and the next press of the key starts with a keydown that replaces the entry. Key-ups are lost while the window
  // has no focus, so a press that spans a blur counts as ancient.
  window.addEventListener("blur", () => keyPressStarted.clear());
  window.addEventListener(
    "pointerdown",
    (event) => {
      pointerPressStarted = { at: event.timeStamp, order: ++pressesSeen };
    },
    true,
  );
}

/** This instant, as a press would be stamped: the performance time, and the presses seen so far. */
function now(): Press {
  return { at: performance.now(), order: pressesSeen };
}

/** Whether `press` began after the instant `since`: later in the order of presses, and not earlier in time. */
function after(press: Press, since: Press): boolean {
  return press.order > since.order && press.at >= since.at;
}

/** The controls an arming dialog marks as not active yet. */
const CONTROLS = "button, input, textarea, [role=listbox]";

/** A Lit element: the controls are looked up in its render root. */
type Host = ReactiveControllerHost & HTMLElement & { readonly renderRoot: ParentNode };

export class PressGuardController implements ReactiveController {
  readonly #host: Host;
  /** When the dialog went on screen (performance time, presses seen): nothing from before it ever answers. */
  #opened = ANCIENT;
  /** From when presses answer: +Infinity while arming. */
  #armed = ANCIENT;
  #clock: Clock | undefined;
  #timer: unknown;

  constructor(host: Host) {
    this.#host = host;
    host.addController(this);
    // Capture on the host runs before any listener inside its shadow root. The listeners live as long as the host
    // (a detached element gets no events from the user), so there is nothing to remove on disconnect.
    for (const type of ["keydown", "keypress", "keyup"]) host.addEventListener(type, this.#guardKey, true);
    host.addEventListener("click", this.#guardClick, true);
  }

  /** True while the arming time runs: presses that begin now never answer. */
  get arming(): boolean {
    return this.#armed.at === Number.POSITIVE_INFINITY;
  }

  /**
   * Call when the dialog goes on screen: presses from before now never answer it, nor those that begin in the next
   * `ms` milliseconds on `clock` (0, negative or not a number: none).
   */
  arm(clock: Clock, ms: number): void {
    this.#clear();
    this.#opened = now();
    if (!(ms > 0)) {
      this.#armed = this.#opened;
    } else {
      this.#armed = { at: Number.POSITIVE_INFINITY, order: Number.POSITIVE_INFINITY };
      this.#clock = clock;
      this.#timer = clock.setTimeout(() => {
        this.#timer = undefined;
        this.#armed = now();
        this.#host.requestUpdate();
      }, ms);
    }
    this.#host.requestUpdate();
  }

  /** Call when the dialog closes: no timer is left behind. */
  stop(): void {
    this.#clear();
    if (this.arming) this.#armed = this.#opened;
  }

  hostDisconnected(): void {
    // Off screen it arms again when it comes back (the host calls `arm` then).
    this.#clear();
  }

  hostUpdated(): void {
    const arming = this.arming;
    for (const control of this.#host.renderRoot.querySelectorAll(CONTROLS)) {
      if (arming) control.setAttribute("aria-disabled", "true");
      else control.removeAttribute("aria-disabled");
    }
  }

  /** Whether `event` belongs to a key press that may act on the dialog. */
  allowsKey(event: KeyboardEvent): boolean {
    if (event.timeStamp < this.#opened.at) return false;
    // An event the tracker has not seen (dispatched by the page itself, or the tracker's listener came later) began now.
    const started = keyPressStarted.get(keyId(event)) ?? { at: event.timeStamp, order: pressesSeen + 1 };
    if (!after(started, this.#opened)) return false;
    if (event.key === "Escape" || event.key === "Tab") return true;
    return after(started, this.#armed);
  }

  /**
   * Whether a click may act on the dialog: one from a pointer press that began after arming, or one with no
   * pointer press behind it (`detail` 0: Enter or Space on a button, whose key press is guarded, or a page's
   * `click()`).
   */
  allowsClick(event: MouseEvent): boolean {
    if (event.detail === 0) return true;
    return after(pointerPressStarted, this.#opened) && after(pointerPressStarted, this.#armed);
  }

  #clear(): void {
    if (this.#timer !== undefined) this.#clock?.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  readonly #guardKey = (event: Event): void => {
    if (event instanceof KeyboardEvent && !this.allowsKey(event)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  };

  readonly #guardClick = (event: Event): void => {
    if (event instanceof MouseEvent && !this.allowsClick(event)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  };
}
