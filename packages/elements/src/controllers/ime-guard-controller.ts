/**
 * Tells whether a key event is part of an IME composition (Japanese, Chinese, Korean input), so the Enter that
 * commits a composition never submits a dialog. Browsers disagree on how to say so: Chromium and Firefox set
 * `isComposing`; Safari sends the committing keydown after `compositionend` with keyCode 229. All three are
 * checked, plus the composition events seen on the host. Under IBus on Linux (test/fixtures/ime) all three engines
 * send keyCode 229 with `isComposing` for every key the input method takes, Enter and Esc included, as key
 * "Process" (Chromium, Firefox) or "Unidentified" (WebKit); the key-up that follows the commit is a plain one.
 */
import type { ReactiveController, ReactiveControllerHost } from "lit";

export class ImeGuardController implements ReactiveController {
  #composing = false;

  constructor(host: ReactiveControllerHost & HTMLElement) {
    // Listeners on the host itself live as long as it does; only the state is reset on disconnect.
    host.addEventListener("compositionstart", () => {
      this.#composing = true;
    });
    host.addEventListener("compositionend", () => {
      this.#composing = false;
    });
    host.addController(this);
  }

  /** A composition is under way on the host. */
  get composing(): boolean {
    return this.#composing;
  }

  /** True when `event` must not be treated as a command key (Enter, Escape) because an IME owns it. */
  isComposing(event: KeyboardEvent): boolean {
    return this.#composing || event.isComposing || event.keyCode === 229;
  }

  hostDisconnected(): void {
    // A composition cut short by removing the element may never get its compositionend.
    this.#composing = false;
  }
}
