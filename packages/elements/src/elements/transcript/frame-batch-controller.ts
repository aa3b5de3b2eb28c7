/**
 * Renders a burst of store changes once a frame. The first change since the last frame renders at once; the ones
 * after it before the next frame wait for it and render together there. A stream's updates come faster than frames
 * (100 a second and more), and a render that no frame paints is wasted; a store that notifies once a frame itself
 * (`conversationOf`'s default) renders at once every time.
 *
 * Each frame has two callbacks: the first renders a change that waited for it; the second, which runs after the
 * first one's microtasks (the host's render and its children's), calls `afterFrame` (the transcript keeps the newest
 * text in view there: reading the layout then costs nothing more, it is the layout that frame does anyway).
 */
import type { ReactiveController, ReactiveControllerHost } from "lit";

export class FrameBatchController implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  readonly #afterFrame: () => void;
  /** Whether the host rendered since the last frame began, and whether a change waits for the next. */
  #renderedSinceFrame = false;
  #pending = false;
  /** From the frame's first callback to its second: a render then is followed by the second. */
  #inFrame = false;
  #frame: number | undefined;
  #frameAfter: number | undefined;
  #waiters: (() => void)[] = [];

  constructor(host: ReactiveControllerHost, afterFrame: () => void) {
    this.#host = host;
    this.#afterFrame = afterFrame;
    host.addController(this);
  }

  /** A store change (a store controller's `changed` hook): `update` now, or the host renders at the next frame. */
  changed(update: () => void): void {
    if (!this.#renderedSinceFrame) {
      update();
      return;
    }
    this.#pending = true;
    this.#schedule();
  }

  /** Whether the render under way is a frame's (its `afterFrame` follows it), not one between frames. */
  get inFrame(): boolean {
    return this.#inFrame;
  }

  /** Whether a change waits for the next frame. */
  get pending(): boolean {
    return this.#pending;
  }

  /** Settles at the next frame's first callback (after it asked the host to render a waiting change). */
  nextFrame(): Promise<void> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  hostUpdated(): void {
    this.#renderedSinceFrame = true;
    this.#schedule();
  }

  hostDisconnected(): void {
    if (this.#frame !== undefined) cancelAnimationFrame(this.#frame);
    if (this.#frameAfter !== undefined) cancelAnimationFrame(this.#frameAfter);
    this.#frame = this.#frameAfter = undefined;
    // Connected again, the host renders its store's snapshot as it is then.
    this.#pending = this.#renderedSinceFrame = this.#inFrame = false;
    this.#release();
  }

  #schedule(): void {
    if (this.#frame !== undefined) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = undefined;
      this.#inFrame = true;
      this.#renderedSinceFrame = false;
      if (this.#pending) {
        this.#pending = false;
        this.#host.requestUpdate();
      }
      this.#release();
    });
    this.#frameAfter = requestAnimationFrame(() => {
      this.#frameAfter = undefined;
      this.#inFrame = false;
      this.#afterFrame();
    });
  }

  #release(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve();
  }
}
