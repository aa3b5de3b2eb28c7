/**
 * Keeps a key press that began before a dialog opened from answering it. The classic accident: the user presses
 * Enter to send a prompt, and a permission gate appears while the key is still down; its auto-repeat (or a late
 * synthetic event) must not confirm the gate.
 *
 * One page-wide tracker (capture listeners on `window`, installed when this module loads, so it sees presses
 * that happen before any dialog exists) remembers when each held key went down. A dialog arms the guard when it
 * opens; from then on a key event is let through only if it was created after that moment AND the press it
 * belongs to started after that moment. Blocked events are stopped before they reach the dialog's controls, which
 * also keeps a held Enter from "clicking" a focused button.
 */
/** code (or key) -> timeStamp of the keydown that started the current press. */
const pressStartedAt = new Map<string, number>();

function keyId(event: KeyboardEvent): string {
  return event.code || event.key;
}

if (typeof window !== "undefined") {
  window.addEventListener(
    "keydown",
    (event) => {
      const id = keyId(event);
      // A repeat with no recorded press was held since before this module loaded: treat it as ancient.
      if (!event.repeat || !pressStartedAt.has(id)) {
        pressStartedAt.set(id, event.repeat ? -Infinity : event.timeStamp);
      }
    },
    true,
  );
  window.addEventListener("keyup", (event) => pressStartedAt.delete(keyId(event)), true);
  // Key-ups are lost while the window has no focus.
  window.addEventListener("blur", () => pressStartedAt.clear());
}

/** Needs no Lit lifecycle hooks: it only listens on its host. */
export class KeyGuardController {
  #armedAt = -Infinity;

  constructor(host: HTMLElement) {
    // Capture on the host runs before any listener inside its shadow root. The listeners live as long as the host
    // (a detached element gets no key events from the user), so there is nothing to remove on disconnect.
    host.addEventListener("keydown", this.#guard, true);
    host.addEventListener("keypress", this.#guard, true);
  }

  /** Call when the dialog opens: key presses from before this instant are ignored. */
  arm(): void {
    this.#armedAt = performance.now();
  }

  /** Whether `event` belongs to a key press that started after the dialog opened. */
  allows(event: KeyboardEvent): boolean {
    if (event.timeStamp < this.#armedAt) return false;
    const started = pressStartedAt.get(keyId(event));
    return started === undefined || started >= this.#armedAt;
  }

  readonly #guard = (event: Event): void => {
    if (event instanceof KeyboardEvent && !this.allows(event)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  };
}
