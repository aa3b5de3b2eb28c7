/**
 * Tells whether a key event is part of an IME composition (Japanese, Chinese, Korean input), so the Enter that
 * commits a composition never submits a dialog. Browsers disagree on how to say so: Chromium and Firefox set
 * `isComposing`; Safari sends the committing keydown after `compositionend` with keyCode 229. All three are
 * checked, plus the composition events seen on the host.
 */
import type { ReactiveController, ReactiveControllerHost } from "lit";

export class ImeGuardController implements ReactiveController {
  readonly #host: ReactiveControllerHost & HTMLElement;
  #composing = false;

  constructor(host: ReactiveControllerHost & HTMLElement) {
    this.#host = host;
    host.addController(this);
  }

  /** True when `event` must not be treated as a command key (Enter, Escape) because an IME owns it. */
  isComposing(event: KeyboardEvent): boolean {
    return this.#composing || event.isComposing || event.keyCode === 229;
  }

  hostConnected(): void {
    this.#host.addEventListener("compositionstart", this.#start);
    this.#host.addEventListener("compositionend", this.#end);
  }

  hostDisconnected(): void {
    this.#host.removeEventListener("compositionstart", this.#start);
    this.#host.removeEventListener("compositionend", this.#end);
    this.#composing = false;
  }

  readonly #start = (): void => {
    this.#composing = true;
  };

  readonly #end = (): void => {
    this.#composing = false;
  };
}
