/**
 * Delays between automatic restarts under the "always" policy: doubling from `initialMs` up to `maxMs`, so an
 * agent that dies at once is not respawned in a tight loop, and back to `initialMs` once a run lasted
 * `resetAfterMs` (a crash after an hour of work is not part of a crash loop).
 */
export interface BackoffOptions {
  /** Default 500. */
  initialMs?: number;
  /** Default 30,000. */
  maxMs?: number;
  /** Default 10,000. */
  resetAfterMs?: number;
}

export class RestartBackoff {
  readonly #initialMs: number;
  readonly #maxMs: number;
  readonly #resetAfterMs: number;
  #attempt = 0;
  #startedAt = 0;

  constructor(options: BackoffOptions = {}) {
    this.#initialMs = options.initialMs ?? 500;
    this.#maxMs = options.maxMs ?? 30_000;
    this.#resetAfterMs = options.resetAfterMs ?? 10_000;
  }

  /** Records that an agent started at clock time `now`. */
  started(now: number): void {
    this.#startedAt = now;
  }

  /** The delay before the next start, for an agent that exited at clock time `now`. */
  nextDelay(now: number): number {
    if (now - this.#startedAt >= this.#resetAfterMs) this.#attempt = 0;
    const delay = Math.min(this.#maxMs, this.#initialMs * 2 ** this.#attempt);
    this.#attempt += 1;
    return delay;
  }
}
